${banner("//")}
@ local P = opts.prefix
@ local rust = import("rule_rust")
@ local layout = import("table_layout")
@ local strategies = flavor.strategies
@ local vector = flavor.isa_level > 0
@ local aligning = {}
@ for _, st in ipairs(strategies) do if st.aligns then aligning[#aligning + 1] = st end end
@ local by_code = {}
@ for _, st in ipairs(strategies) do by_code[st.code] = st end
@ local function per_code(f)
@   local items = {}
@   for code = 0, strategies[#strategies].code do items[#items + 1] = by_code[code] and f(by_code[code]) or "0" end
@   return table.concat(items, ", ")
@ end
//! Installing a rule: the table the routines' dispatch reads, filled as
//! copy_rule.c's installer fills it, and a table that forces one strategy.
#![allow(clippy::needless_range_loop)] // the loops index the asm's tables, laid out class by class

use crate::rule::*;
@ if not target_name() then
use core::ptr::{addr_of, addr_of_mut, read_volatile, write_volatile};
@ else
use core::ptr::{addr_of, read_volatile};
@ end
@ if vector then
use core::sync::atomic::{AtomicI32, Ordering::Relaxed};
@ end

/// The lengths each strategy copies, by code (usize::MAX: no limit).
static STRATEGY_MIN: [usize; N_STRATEGIES] = [${per_code(function(st) return st.min_n end)}];
static STRATEGY_MAX: [usize; N_STRATEGIES] = [${per_code(function(st) return st.max_n < 0 and "usize::MAX" or st.max_n end)}];

extern "C" {
    // Defined by the x86_64/copy.S of the same run: the crate will not link
    // with routines of another run.
    #[link_name = "${P}out_stamp_${gen.stamp}"]
    static OUT_STAMP: u8;
@ if vector then
    #[link_name = "${P}copy_isa"]
    fn copy_isa() -> i32;
@ end
@ if not target_name() then
    // The installed table in x86_64/copy.S (templates/lib/table_layout.lua).
    #[link_name = "${P}copy_zero_mask"]
    static mut ZERO_MASK: u64;
    #[link_name = "${P}copy_above_max"]
    static mut ABOVE_MAX: u64;
    #[link_name = "${P}copy_near_max"]
    static mut NEAR_MAX: u64;
    #[link_name = "${P}copy_below_from"]
    static mut BELOW_FROM: u64;
    #[link_name = "${P}copy_align_dst"]
    static mut ALIGN_DST: u64;
    #[link_name = "${P}copy_long_hi"]
    static mut LONG_HI: [u64; MAX_BANDS - 1];
    #[link_name = "${P}copy_long_cells"]
    static mut LONG_CELLS: [u8; N_CLASSES * MAX_BANDS];
    #[link_name = "${P}copy_short"]
    static mut SHORT_CELLS: [u8; N_CLASSES * SHORT];
    #[link_name = "${P}copy_uniform"]
    static mut UNIFORM: [u8; SHORT];
    #[link_name = "${P}copy_long_uniform"]
    static mut LONG_UNIFORM: [u8; MAX_BANDS];
@ end
}

/// Fills a table that forces strategy: it in every class for the lengths it
/// copies, forward at the others, the head of a strategy that aligns
/// aligned to align_dst; status Forced, reason the caller's. Installed, a
/// forced table is read by the dispatch like a measured one. None where
/// strategy is not a code of this flavor.
pub fn force(strategy: u8, align_dst: u32, reason: &'static str) -> Option<Rule> {
    if !is_strategy(strategy) {
        return None;
    }
    let mut rule = Rule {
        above_max: 0,
        near_max: 0,
        below_max: 0,
        zero_mod: 4096,
        align_dst,
        n_bands: 0,
        bands: [Band::EMPTY; MAX_BANDS],
        status: Status::Forced,
        entry: "",
        source: "",
        reason,
    };
    let (min_n, max_n) = (STRATEGY_MIN[usize::from(strategy)], STRATEGY_MAX[usize::from(strategy)]);
    let mut n = 0;
    if min_n > 0 {
        rule.bands[n] = Band { hi: min_n - 1, strategy: [STRATEGY_FORWARD; N_CLASSES] };
        n += 1;
    }
    rule.bands[n] = Band { hi: max_n, strategy: [strategy; N_CLASSES] };
    n += 1;
    if max_n != usize::MAX {
        rule.bands[n] = Band { hi: usize::MAX, strategy: [STRATEGY_FORWARD; N_CLASSES] };
        n += 1;
    }
    rule.n_bands = n as u32;
    Some(rule)
}
@ if target_name() then

/// Built for ${target_name()} alone: copy.S holds its table as a branch tree,
/// so a strategy runs as the table says.
pub fn runs(strategy: u8, _n: usize) -> u8 {
    strategy
}

/// Nothing to install: the routines hold ${target_name()}'s table.
///
/// # Safety
///
/// None needed; unsafe as the generic build's is.
pub unsafe fn install(_rule: &Rule) {
    read_volatile(addr_of!(OUT_STAMP));
}

/// The rule the routines were built for, ${target_name()}'s, whatever the CPU.
pub fn init() -> &'static Rule {
    static TARGET: Rule = ${rust.literal(target_rule(target_name(), flavor.name), target_name())};
    // SAFETY: it installs nothing.
    unsafe { install(&TARGET) };
    &TARGET
}
@ else

const SHORT: usize = ${layout.short};
/// A uniform byte that says the classes differ.
const MIXED: u8 = ${layout.mixed};
@ if vector then

/// Each strategy's instruction set (0 general registers, 1 AVX2, 2
/// AVX-512) and the strategy that runs in its place where that set is not
/// enabled, by code.
static STRATEGY_ISA: [u8; N_STRATEGIES] = [${per_code(function(st) return st.isa_level end)}];
static STRATEGY_FALLBACK: [u8; N_STRATEGIES] = [${per_code(function(st) return "STRATEGY_" .. string.upper(st.fallback) end)}];

/// The widest isa an installed rule may use: what copy_isa() reports, at
/// most the cap. copy_isa() is asked at the first install only: CPUID
/// exits to the hypervisor in a guest, and tests install a table before
/// every point they check. -1 until asked.
static ISA_CAP: AtomicI32 = AtomicI32::new(2);
static INSTALLED_ISA: AtomicI32 = AtomicI32::new(0);
static MACHINE_ISA: AtomicI32 = AtomicI32::new(-1);

/// Caps the vector isa of the rules installed from now on: 0 general
/// registers only, 1 AVX2, 2 AVX-512 (the default: what copy_isa() reports).
pub fn limit_isa(isa: i32) {
    ISA_CAP.store(isa.max(0), Relaxed);
}
@ end

/// The strategy the routines run where the table says s, at length len: a
/// head needs an alignment, so without one the copy is its fallback; a
/// strategy whose isa is not enabled gives way to its fallback, or to
/// forward where the fallback cannot copy len bytes.
fn runs_at(s: u8, ${vector and "len" or "_len"}: usize, ${#aligning > 0 and "align_dst" or "_align_dst"}: u32) -> u8 {
    let ${(#aligning > 0 or vector) and "mut " or ""}s = if is_strategy(s) { s } else { STRATEGY_FORWARD };
@ if vector then
    while i32::from(STRATEGY_ISA[usize::from(s)]) > INSTALLED_ISA.load(Relaxed) {
        s = STRATEGY_FALLBACK[usize::from(s)];
    }
    if len < STRATEGY_MIN[usize::from(s)] || len > STRATEGY_MAX[usize::from(s)] {
        s = STRATEGY_FORWARD;
    }
@ end
@ for _, st in ipairs(aligning) do
    if s == STRATEGY_${string.upper(st.name)} && align_dst == 0 {
        s = STRATEGY_${string.upper(st.fallback)};
    }
@ end
    s
}

/// The strategy the routines run, under the installed rule, where its
/// table says strategy for n bytes.
pub fn runs(strategy: u8, n: usize) -> u8 {
    // SAFETY: a word of the table, read as the routines read it.
    let align_dst = unsafe { read_volatile(addr_of!(ALIGN_DST)) };
    runs_at(strategy, n, align_dst as u32)
}

/// The strategy of band b and class c at length len, as the routines run it.
fn cell(rule: &Rule, b: usize, c: usize, len: usize) -> u8 {
    runs_at(rule.bands[b].strategy[c], len, rule.align_dst)
}

/// Makes the copy routines follow rule: writes the table the table dispatch
/// reads and chooses the routines that run it (its compiled ones, the
/// baseline, or the table dispatch), which the entries run once [`patch`](crate::patch)
/// has pointed them there.
///
/// # Safety
///
/// rule's strategies must copy the lengths of their bands, as those of the
/// generated table, [`lookup`] and [`force`] do. Call it before other CPUs
/// copy.
pub unsafe fn install(rule: &Rule) {
    read_volatile(addr_of!(OUT_STAMP));
    let n = if rule.n_bands < 1 || rule.n_bands as usize > MAX_BANDS { 1 } else { rule.n_bands as usize };
@ if vector then
    if MACHINE_ISA.load(Relaxed) < 0 {
        MACHINE_ISA.store(copy_isa(), Relaxed);
    }
    let isa = MACHINE_ISA.load(Relaxed).min(ISA_CAP.load(Relaxed));
    INSTALLED_ISA.store(isa, Relaxed);
@ end
    // d mod zero_mod = 0 is d & (zero_mod - 1) = 0; anything but a power of
    // two up to 4096 counts as 4096: d = 0 alone.
    let z = rule.zero_mod;
    let zero_mask = if z != 0 && z <= 4096 && z & (z - 1) == 0 { z - 1 } else { 4095 };
    write_volatile(addr_of_mut!(ZERO_MASK), u64::from(zero_mask));
    write_volatile(addr_of_mut!(ABOVE_MAX), u64::from(rule.above_max));
    write_volatile(addr_of_mut!(NEAR_MAX), u64::from(rule.near_max));
    write_volatile(addr_of_mut!(BELOW_FROM), u64::from(4096u32.wrapping_sub(rule.below_max)));
    write_volatile(addr_of_mut!(ALIGN_DST), u64::from(rule.align_dst));

    let mut short = [0u8; N_CLASSES * SHORT];
    for c in 0..N_CLASSES {
        let mut b = 0;
        for len in 0..SHORT {
            while b + 1 < n && len > rule.bands[b].hi {
                b += 1;
            }
            short[c * SHORT + len] = cell(rule, b, c, len);
        }
    }
    // Where every class takes one strategy, the dispatch needs no distance.
    let mut uniform = [0u8; SHORT];
    for len in 0..SHORT {
        let s = short[len];
        uniform[len] = if (1..N_CLASSES).all(|c| short[c * SHORT + len] == s) { s } else { MIXED };
    }
    let mut first_long = 0;
    while first_long + 1 < n && rule.bands[first_long].hi < SHORT {
        first_long += 1;
    }
    let mut long_hi = [u64::MAX; MAX_BANDS - 1];
    let mut long_cells = [0u8; N_CLASSES * MAX_BANDS];
    for k in 0..MAX_BANDS {
        let b = if first_long + k < n { first_long + k } else { n - 1 };
        if k + 1 < MAX_BANDS && first_long + k + 1 < n {
            long_hi[k] = rule.bands[b].hi as u64;
        }
        // One strategy for all of the band's lengths from SHORT: judged at
        // its last, where a fallback of fewer lengths no longer copies.
        let len = rule.bands[b].hi.max(SHORT);
        for c in 0..N_CLASSES {
            long_cells[c * MAX_BANDS + k] = cell(rule, b, c, len);
        }
    }
    let mut long_uniform = [0u8; MAX_BANDS];
    for k in 0..MAX_BANDS {
        let s = long_cells[k];
        long_uniform[k] = if (1..N_CLASSES).all(|c| long_cells[c * MAX_BANDS + k] == s) { s } else { MIXED };
    }
    for (i, &v) in short.iter().enumerate() {
        write_volatile((addr_of_mut!(SHORT_CELLS) as *mut u8).add(i), v);
    }
    for (i, &v) in uniform.iter().enumerate() {
        write_volatile((addr_of_mut!(UNIFORM) as *mut u8).add(i), v);
    }
    for (i, &v) in long_hi.iter().enumerate() {
        write_volatile((addr_of_mut!(LONG_HI) as *mut u64).add(i), v);
    }
    for (i, &v) in long_cells.iter().enumerate() {
        write_volatile((addr_of_mut!(LONG_CELLS) as *mut u8).add(i), v);
    }
    for (i, &v) in long_uniform.iter().enumerate() {
        write_volatile((addr_of_mut!(LONG_UNIFORM) as *mut u8).add(i), v);
    }
    let all_forward = uniform.iter().chain(long_uniform.iter()).all(|&s| s == STRATEGY_FORWARD);
    crate::patch::choose_set(rule, ${vector and "isa" or "0"}, all_forward);
}

/// Reads CPUID on this CPU, installs its rule and returns it, for the boot
/// log: `memcpy: {:?}`. Call it once, before other CPUs copy; then [`patch`](crate::patch).
pub fn init() -> &'static Rule {
    let rule = Cpuid::read().rule();
    // SAFETY: a rule of the generated table. Until patch() the entries run
    // the baseline, which reads no table.
    unsafe { install(rule) };
    rule
}
@ end
