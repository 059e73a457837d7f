//! The copies against copy_within, as the seed's kernel tests its own: the
//! descending copy at every length to 300 and beyond at every store offset,
//! and memcpy under every rule of the database and every strategy forced,
//! at every distance below 1 KiB and beyond, on a background of guard bytes.
use uarchcopy_tests::*;

fn copy_down(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: the arena's ranges; n >= 8, as copy_down needs.
    unsafe { uarchcopy::raw::copy_down(dst, src, n) };
}

fn memcpy(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: the arena's ranges, disjoint or identical.
    unsafe { uarchcopy::raw::memcpy(dst, src, n) };
}

#[test]
fn descending_copy_every_length_every_store_offset() {
    let mut arena = Arena::default();
    let lengths = (8..=300).chain([511, 512, 513, 1000, 4095, 4096, 4097, 65536]);
    let mut failures = Vec::new();
    for n in lengths {
        for dst_off in 0..64 {
            for src_off in [0, 3, 8] {
                let (dst, src) = arena.place(src_off, (dst_off + PAGE - src_off) % PAGE);
                if let Err(why) = arena.check(dst, src, n, copy_down) {
                    failures.push(format!("copy_down n {} dst offset {} src offset {}: {}", n, dst_off, src_off, why));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} failures, first: {:?}", failures.len(), &failures[..failures.len().min(5)]);
}

#[test]
fn memcpy_every_rule_every_distance() {
    let _serial = serial();
    let mut arena = Arena::default();
    let mut failures = Vec::new();
    let short_distances = [0, 1, 8, 16, 31, 32, 33, 63, 64, 65, 4032, 4064, 4080, 4095];
    for rule in every_rule() {
        install(&rule);
        let mut fail = |what: String| failures.push(format!("{:?}: {}", rule, what));
        for d in distances() {
            for &n in edge_lengths(&rule).iter() {
                for src_off in [0, 5] {
                    let (dst, src) = arena.place(src_off, d);
                    if let Err(why) = arena.check(dst, src, n, memcpy) {
                        fail(format!("n {} d {} src offset {}: {}", n, d, src_off, why));
                    }
                }
            }
        }
        for d in short_distances {
            for n in 0..=300 {
                let (dst, src) = arena.place(7, d);
                if let Err(why) = arena.check(dst, src, n, memcpy) {
                    fail(format!("n {} d {}: {}", n, d, why));
                }
            }
            for n in [8192, 65536] {
                let (dst, src) = arena.place(0, d);
                if let Err(why) = arena.check(dst, src, n, memcpy) {
                    fail(format!("n {} d {}: {}", n, d, why));
                }
            }
        }
        for n in 0..=300 {
            let (_, src) = arena.place(9, 0);
            if let Err(why) = arena.check_same(src, n, memcpy) {
                fail(why);
            }
        }
    }
    assert!(failures.is_empty(), "{} failures, first: {:?}", failures.len(), &failures[..failures.len().min(5)]);
}

#[test]
fn a_forced_strategy_is_the_one_that_runs() {
    let _serial = serial();
    let arena = Arena::default();
    for code in 0..uarchcopy::N_STRATEGIES as u8 {
        let rule = match uarchcopy::force(code, 64, "a test") {
            Some(rule) => rule,
            None => continue,
        };
        install(&rule);
        let band = rule.bands.iter().find(|b| b.strategy[0] == code).unwrap();
        let lo = if rule.bands[0].strategy[0] == code { 0 } else { rule.bands[0].hi + 1 };
        for n in [lo, lo + 1, band.hi.min(lo + 300)] {
            let (dst, src) = arena.place(0, 16);
            let ran = uarchcopy::copy_strategy(arena.addr(dst), arena.addr(src), n);
            assert_eq!(ran, uarchcopy::runs(code, n), "{:?}, n {}", rule, n);
        }
        assert_eq!(uarchcopy::routines(), "table", "a forced table runs the table dispatch");
    }
}

#[test]
fn the_safe_copy_copies() {
    let _serial = serial();
    install(uarchcopy::lookup(b"NoSuchVendor", 0, 0));
    let src: Vec<u8> = (0..=255).collect();
    let mut dst = vec![0u8; 256];
    uarchcopy::copy(&mut dst, &src);
    assert_eq!(dst, src);
}
