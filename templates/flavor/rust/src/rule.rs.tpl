${banner("//")}
@ local strategies = flavor.strategies
@ local n_strategies = strategies[#strategies].code + 1
@ local mask = 0
@ for _, st in ipairs(strategies) do mask = mask | (1 << st.code) end
//! A rule, the decision table a core gets, and its lookup from CPUID: what
//! copy_rule.h and the table of copy_rule.c say, in Rust.

use crate::cpu_table::{BASELINE, CPU_TABLE};

/// The flavor these files were generated for.
pub const FLAVOR: &str = "${flavor.name}";

/// The strategies a rule's table chooses from, by code (the catalogue,
/// common/strategies.h): those the flavor's isa allows. A code is stable, so
/// the codes may have gaps; [`is_strategy`] says which are this flavor's.
@ for _, st in ipairs(strategies) do
pub const STRATEGY_${string.upper(st.name)}: u8 = ${st.code};
@ end
/// Every code is below this.
pub const N_STRATEGIES: usize = ${n_strategies};
const STRATEGY_CODES: u64 = 0x${string.format("%x", mask)};

/// Whether code is one of this flavor's strategies.
pub const fn is_strategy(code: u8) -> bool {
    (code as usize) < N_STRATEGIES && (STRATEGY_CODES >> code) & 1 != 0
}

/// Distance classes, by d = (dst - src) mod 4096, tested in this order: zero
/// (d mod zero_mod = 0), above (d <= above_max), near (d <= near_max), below
/// (d >= 4096 - below_max), elsewhere.
@ for i, c in ipairs(db.classes) do
pub const CLASS_${string.upper(c)}: usize = ${i - 1};
@ end
pub const N_CLASSES: usize = ${#db.classes};
/// The most bands a rule holds.
pub const MAX_BANDS: usize = ${db.max_bands};

/// Where a rule comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// No evidence for this core: every copy forward.
    Baseline,
    /// A measured entry's table, through a row that says why.
    Inherited,
    /// Measured on this core's own entry.
    Measured,
    /// Never in the generated table: a table a caller built to force a path
    /// (tests), whose reason says how.
    Forced,
}

/// One length band of a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    /// The band holds lengths from the previous band's hi + 1 (0 for the
    /// first) to hi; usize::MAX for the last band.
    pub hi: usize,
    /// The strategy code of each distance class, indexed by CLASS_*.
    pub strategy: [u8; N_CLASSES],
}

impl Band {
    /// A band past the rule's n_bands, as the C table leaves it.
    pub const EMPTY: Band = Band { hi: 0, strategy: [0; N_CLASSES] };
}

/// A core's rule: a decision table of length bands x distance classes. Its
/// Debug is the boot log's line: `Rule { above_max: 31, .. } (zen2, measured)`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// 0 leaves a class empty; near_max is 0 or more than above_max.
    pub above_max: u32,
    pub near_max: u32,
    pub below_max: u32,
    /// 4096: class zero is d = 0 alone; 8..64: every d that is a multiple.
    pub zero_mod: u32,
    /// The head of a strategy that aligns brings dst to a multiple of this.
    pub align_dst: u32,
    /// 1..=MAX_BANDS
    pub n_bands: u32,
    pub bands: [Band; MAX_BANDS],
    pub status: Status,
    /// The entry CPUID selected ("zen3"); "" when no entry matched.
    pub entry: &'static str,
    /// The entry whose measurement gave the table; "" for the baseline.
    pub source: &'static str,
    /// Why an inherited rule is inherited, or a forced one forced; "" otherwise.
    pub reason: &'static str,
}

/// A row of the CPUID table, shaped like Linux's struct x86_cpu_id: vendor,
/// family, model range, then the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuMatch {
    pub vendor: [u8; 12],
    pub family: u32,
    pub model_lo: u32,
    pub model_hi: u32,
    pub rule: Rule,
}

/// The CPUID table: a row per CPUID range of every entry.
pub fn cpu_table() -> &'static [CpuMatch] {
    &CPU_TABLE
}

/// The rule for a display family and model (as Linux computes them); a core
/// no entry holds gets the baseline. vendor is the 12-byte CPUID string.
pub fn lookup(vendor: &[u8; 12], family: u32, model: u32) -> &'static Rule {
    CPU_TABLE
        .iter()
        .find(|m| &m.vendor == vendor && m.family == family && model >= m.model_lo && model <= m.model_hi)
        .map_or(&BASELINE, |m| &m.rule)
}

/// The rule of row i of the CPUID table, None past the last.
pub fn rule_at(i: usize) -> Option<&'static Rule> {
    CPU_TABLE.get(i).map(|m| &m.rule)
}

/// Display family and model of a leaf 1 EAX signature, as Linux's
/// x86_family() and x86_model() compute them.
pub const fn family_model(signature: u32) -> (u32, u32) {
    let mut family = (signature >> 8) & 0xf;
    if family == 0xf {
        family += (signature >> 20) & 0xff;
    }
    let mut model = (signature >> 4) & 0xf;
    if family >= 0x6 {
        model += ((signature >> 16) & 0xf) << 4;
    }
    (family, model)
}

/// The two CPUID words the rule depends on. Tests fill them from recorded
/// leaves, so no particular CPU is needed to check the lookup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cpuid {
    /// Leaf 0: ebx, edx, ecx.
    pub vendor: [u32; 3],
    /// Leaf 1: eax.
    pub signature: u32,
}

impl Cpuid {
    /// Reads them from this CPU.
    // __cpuid_count is an unsafe fn in the oldest Rust this crate builds
    // with (1.63) and a safe one in current Rust (from 1.87): the unsafe
    // blocks the first needs the second calls unnecessary.
    #[allow(unused_unsafe)]
    pub fn read() -> Cpuid {
        // SAFETY: CPUID exists on every x86-64 CPU.
        let leaf0 = unsafe { core::arch::x86_64::__cpuid_count(0, 0) };
        let signature = if leaf0.eax >= 1 {
            // SAFETY: as above; leaf 1 exists where leaf 0 says so.
            unsafe { core::arch::x86_64::__cpuid_count(1, 0) }.eax
        } else {
            0
        };
        Cpuid { vendor: [leaf0.ebx, leaf0.edx, leaf0.ecx], signature }
    }

    /// The rule for these words.
    pub fn rule(&self) -> &'static Rule {
        let mut vendor = [0u8; 12];
        for (i, byte) in vendor.iter_mut().enumerate() {
            *byte = (self.vendor[i / 4] >> (8 * (i % 4))) as u8;
        }
        let (family, model) = family_model(self.signature);
        lookup(&vendor, family, model)
    }
}
