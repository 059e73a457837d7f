//! memmove where source and destination overlap, against copy_within:
//! under every rule of the database and every strategy forced, at every
//! band edge and the lengths around the strategies' own limits, the
//! destination 1 to 4096 bytes above and below the source, on a background
//! of guard bytes; and the safe move_within.
#![cfg(feature = "memmove")]

use uarchcopy_tests::*;

/// The shifts (dst - src) the sweep takes, above and below.
const SHIFTS: [usize; 20] = [1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, 4095, 4096];

/// buf[src..src + n] moved to dst by memmove, against copy_within on a copy
/// of the same bytes: every byte from GUARD before the lower range to GUARD
/// after the upper one agrees. Puts the bytes back.
fn check_move(buf: &mut [u8], pristine: &[u8], dst: usize, src: usize, n: usize) -> Result<(), String> {
    let lo = dst.min(src) - GUARD;
    let hi = dst.max(src) + n + GUARD;
    let mut want = pristine[lo..hi].to_vec();
    want.copy_within(src - lo..src - lo + n, dst - lo);
    // SAFETY: both ranges lie inside buf.
    unsafe { uarchcopy::raw::memmove(buf.as_mut_ptr().add(dst), buf.as_ptr().add(src), n) };
    let bad = buf[lo..hi].iter().zip(&want).position(|(a, b)| a != b);
    buf[lo..hi].copy_from_slice(&pristine[lo..hi]);
    bad.map_or(Ok(()), |i| Err(format!("byte {} from the destination is wrong", (lo + i) as isize - dst as isize)))
}

#[test]
fn memmove_overlapping_every_rule() {
    let _serial = serial();
    let longest = 20001;
    let pristine = pattern(2 * PAGE + 2 * longest + 2 * 4096);
    let mut buf = pristine.clone();
    let base = PAGE + 4096 + (PAGE - buf.as_ptr() as usize % PAGE) % PAGE;
    let mut failures = Vec::new();
    for rule in every_rule() {
        install(&rule);
        let lengths = edge_lengths(&rule).into_iter().chain(0..=72).filter(|&n| n <= longest);
        for n in lengths {
            for shift in SHIFTS {
                for src_off in [0, 5] {
                    let src = base + src_off;
                    for dst in [src + shift, src - shift] {
                        if let Err(why) = check_move(&mut buf, &pristine, dst, src, n) {
                            failures.push(format!("{:?}: n {} dst - src {}: {}", rule, n, dst as isize - src as isize, why));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} failures, first: {:?}", failures.len(), &failures[..failures.len().min(5)]);
}

#[test]
fn the_safe_move_moves() {
    let _serial = serial();
    install(uarchcopy::lookup(b"NoSuchVendor", 0, 0));
    for (src, dest) in [(0..300, 7), (7..307, 0), (0..4096, 1), (1..4097, 0), (0..0, 5)] {
        let mut buf = pattern(5000);
        let mut want = buf.clone();
        want.copy_within(src.clone(), dest);
        uarchcopy::move_within(&mut buf, src.clone(), dest);
        assert!(buf == want, "move_within({:?}, {})", src, dest);
    }
}
