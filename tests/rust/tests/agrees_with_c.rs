//! The crate's table against the C rule table of the same out/ (copy_rule.c,
//! built by build.rs): every CPUID row, every lookup at a range's edges, the
//! log line, the forced tables, and, installed by each, the strategy every
//! (length, distance) of the generated tests takes.
use std::ffi::CStr;
use std::os::raw::{c_char, c_void};

use uarchcopy::{Rule, Status, MAX_BANDS, N_CLASSES};
use uarchcopy_tests::*;

#[repr(C)]
#[derive(Clone, Copy)]
struct CBand {
    hi: usize,
    strategy: [u8; N_CLASSES],
}

/// struct uc_rule of copy_rule.h.
#[repr(C)]
#[derive(Clone, Copy)]
struct CRule {
    above_max: u32,
    near_max: u32,
    below_max: u32,
    zero_mod: u32,
    align_dst: u32,
    n_bands: u32,
    bands: [CBand; MAX_BANDS],
    status: i32,
    entry: *const c_char,
    source: *const c_char,
    reason: *const c_char,
}

type CPoke = unsafe extern "C" fn(*mut c_void, *const c_void, usize);

extern "C" {
    fn uc_rule_at(i: u32) -> *const CRule;
    fn uc_rule_lookup(vendor: *const u8, family: u32, model: u32) -> *const CRule;
    fn uc_rule_describe(buf: *mut u8, size: usize, rule: *const CRule) -> usize;
    fn uc_rule_force(rule: *mut CRule, strategy: i32, align_dst: u32, reason: *const c_char) -> i32;
    fn uc_rule_install(rule: *const CRule);
    fn uc_rule_patch(poke: Option<CPoke>) -> i32;
    fn uc_rule_routines() -> *const c_char;
    fn uc_cpuid_family_model(signature: u32, family: *mut u32, model: *mut u32);
}

unsafe extern "C" fn c_poke(addr: *mut c_void, bytes: *const c_void, len: usize) {
    poke(addr as *mut u8, std::slice::from_raw_parts(bytes as *const u8, len));
}

fn text(s: *const c_char) -> String {
    // SAFETY: copy_rule.c's strings end in NUL.
    unsafe { CStr::from_ptr(s) }.to_str().unwrap().to_string()
}

/// The C rule, as the crate writes a rule.
fn from_c(c: &CRule) -> Rule {
    let mut bands = [uarchcopy::Band::EMPTY; MAX_BANDS];
    for (b, cb) in bands.iter_mut().zip(c.bands.iter()) {
        b.hi = cb.hi;
        b.strategy = cb.strategy;
    }
    let leak = |s: *const c_char| -> &'static str { Box::leak(text(s).into_boxed_str()) };
    Rule {
        above_max: c.above_max,
        near_max: c.near_max,
        below_max: c.below_max,
        zero_mod: c.zero_mod,
        align_dst: c.align_dst,
        n_bands: c.n_bands,
        bands,
        status: [Status::Baseline, Status::Inherited, Status::Measured, Status::Forced][c.status as usize],
        entry: leak(c.entry),
        source: leak(c.source),
        reason: leak(c.reason),
    }
}

fn describe(c: &CRule) -> String {
    let mut buf = [0u8; 1024];
    // SAFETY: a buffer of its size.
    let len = unsafe { uc_rule_describe(buf.as_mut_ptr(), buf.len(), c) };
    String::from_utf8(buf[..len].to_vec()).unwrap()
}

fn agree(c: *const CRule, rust: &Rule, what: &str) {
    assert!(!c.is_null(), "{}: the C table has no rule", what);
    // SAFETY: a rule of copy_rule.c.
    let c = unsafe { &*c };
    assert_eq!(&from_c(c), rust, "{}: the tables differ", what);
    assert_eq!(describe(c), format!("memcpy: {:?}", rust), "{}: the log lines differ", what);
}

#[test]
fn every_row_and_every_lookup() {
    let table = uarchcopy::cpu_table();
    for (i, row) in table.iter().enumerate() {
        // SAFETY: a row index; the table ends with NULL.
        agree(unsafe { uc_rule_at(i as u32) }, &row.rule, &format!("row {}", i));
        for family in [row.family - 1, row.family, row.family + 1] {
            for model in [row.model_lo.wrapping_sub(1), row.model_lo, row.model_hi, row.model_hi + 1] {
                let what = format!("{} family {:#x} model {:#x}", String::from_utf8_lossy(&row.vendor), family, model);
                // SAFETY: a 12-byte vendor.
                agree(unsafe { uc_rule_lookup(row.vendor.as_ptr(), family, model) }, uarchcopy::lookup(&row.vendor, family, model), &what);
            }
        }
    }
    // SAFETY: past the last row.
    assert!(unsafe { uc_rule_at(table.len() as u32) }.is_null(), "the C table has more rows");
    assert!(uarchcopy::rule_at(table.len()).is_none());
    // SAFETY: a 12-byte vendor.
    agree(unsafe { uc_rule_lookup(b"NoSuchVendor".as_ptr(), 0x19, 0x21) }, uarchcopy::lookup(b"NoSuchVendor", 0x19, 0x21), "an unknown vendor");
    for signature in [0u32, 0x0800_f12, 0x0083_0f10, 0x00a2_0f10, 0x00b4_0f00, 0x0008_06c1, 0x000b_06a2, 0xffff_ffff] {
        let (mut family, mut model) = (0, 0);
        // SAFETY: two words to write.
        unsafe { uc_cpuid_family_model(signature, &mut family, &mut model) };
        assert_eq!(uarchcopy::family_model(signature), (family, model), "signature {:#x}", signature);
    }
}

#[test]
fn every_forced_table() {
    for code in 0..uarchcopy::N_STRATEGIES as i32 + 2 {
        let reason = b"a test\0";
        // SAFETY: an all-zero rule is a valid struct uc_rule to overwrite.
        let mut c: CRule = unsafe { std::mem::zeroed() };
        // SAFETY: a rule to fill and a string that outlives it.
        let refused = unsafe { uc_rule_force(&mut c, code, 64, reason.as_ptr() as *const c_char) } != 0;
        let rust = uarchcopy::force(code as u8, 64, "a test");
        assert_eq!(refused, rust.is_none(), "strategy {}: one forces it, the other refuses", code);
        if let Some(rust) = rust {
            agree(&c, &rust, &format!("strategy {} forced", code));
        }
    }
}

/// The strategy every (length, distance) of the generated tests takes
/// under the installed rule, and the routines that run it.
fn choices(rule: &Rule) -> (String, Vec<u8>) {
    let arena = Arena::default();
    let mut lengths: Vec<usize> = (0..=300).chain([4096, 8192, 65536]).collect();
    lengths.extend(edge_lengths(rule));
    let mut seen = Vec::new();
    for d in (0..1024).chain(4032..4096) {
        let (dst, src) = arena.place(0, d);
        for &n in &lengths {
            seen.push(uarchcopy::copy_strategy(arena.addr(dst), arena.addr(src), n));
        }
    }
    (uarchcopy::routines().to_string(), seen)
}

#[test]
fn each_installer_makes_the_same_choices() {
    let _serial = serial();
    // Both patches read the entries as built before either writes them.
    // SAFETY: one thread patches; the baseline and the table's rules.
    unsafe {
        uc_rule_install(uc_rule_lookup(b"NoSuchVendor".as_ptr(), 0, 0));
        assert_eq!(uc_rule_patch(Some(c_poke)), 0);
        assert_eq!(uc_rule_patch(None), -1);
        assert_eq!(uarchcopy::patch(None), Err(uarchcopy::Refused), "patch without a poke must refuse");
    }
    for rule in every_rule() {
        install(&rule);
        let by_rust = choices(&rule);
        let mut c: CRule = unsafe { std::mem::zeroed() };
        c.above_max = rule.above_max;
        c.near_max = rule.near_max;
        c.below_max = rule.below_max;
        c.zero_mod = rule.zero_mod;
        c.align_dst = rule.align_dst;
        c.n_bands = rule.n_bands;
        for (cb, b) in c.bands.iter_mut().zip(rule.bands.iter()) {
            cb.hi = b.hi;
            cb.strategy = b.strategy;
        }
        c.status = [Status::Baseline, Status::Inherited, Status::Measured, Status::Forced].iter().position(|s| *s == rule.status).unwrap() as i32;
        c.entry = b"\0".as_ptr() as *const c_char;
        c.source = c.entry;
        c.reason = c.entry;
        // SAFETY: a rule of the table or a forced one; one thread patches.
        unsafe {
            uc_rule_install(&c);
            assert_eq!(uc_rule_patch(Some(c_poke)), 0);
        }
        let by_c = (text(unsafe { uc_rule_routines() }), choices(&rule).1);
        assert_eq!(by_rust.0, by_c.0, "{:?}: the routines differ", rule);
        assert!(by_rust.1 == by_c.1, "{:?}: the strategies differ", rule);
    }
}

#[test]
fn init_agrees_on_this_cpu() {
    let _serial = serial();
    let cpuid = uarchcopy::Cpuid::read();
    let rule = uarchcopy::init();
    assert_eq!(rule, cpuid.rule());
    let (family, model) = uarchcopy::family_model(cpuid.signature);
    let mut vendor = [0u8; 12];
    for (i, b) in vendor.iter_mut().enumerate() {
        *b = (cpuid.vendor[i / 4] >> (8 * (i % 4))) as u8;
    }
    // SAFETY: a 12-byte vendor.
    agree(unsafe { uc_rule_lookup(vendor.as_ptr(), family, model) }, rule, "this CPU");
    // SAFETY: one thread patches.
    unsafe { uarchcopy::patch(Some(poke)) }.expect("patch refused");
}
