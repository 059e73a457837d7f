//! What the tests of the vendored crate share: a text poke for user space,
//! the lengths and distances they sweep, and a checked copy on a background
//! of guard bytes.
use std::sync::{Mutex, MutexGuard};

use uarchcopy::Rule;

pub const PAGE: usize = 4096;

extern "C" {
    fn mprotect(addr: *mut u8, len: usize, prot: i32) -> i32;
}
const PROT_READ: i32 = 1;
const PROT_WRITE: i32 = 2;
const PROT_EXEC: i32 = 4;

/// Makes pages of [addr, addr + len) readable, writable and executable as prot says.
///
/// # Safety
///
/// The pages must be mapped, and nothing may need them otherwise.
pub unsafe fn protect(addr: *mut u8, len: usize, read: bool, write: bool, exec: bool) {
    let first = addr as usize & !(PAGE - 1);
    let span = addr as usize + len - first;
    let prot = if read { PROT_READ } else { 0 } | if write { PROT_WRITE } else { 0 } | if exec { PROT_EXEC } else { 0 };
    assert_eq!(mprotect(first as *mut u8, span, prot), 0, "mprotect of {:#x}+{}", first, span);
}

/// The kernel's text poke, in user space: the code's pages writable for the
/// time of the write. One thread runs the tests, so no other runs the code.
///
/// # Safety
///
/// addr must be code of this program.
pub unsafe fn poke(addr: *mut u8, bytes: &[u8]) {
    protect(addr, bytes.len(), true, true, true);
    std::ptr::copy_nonoverlapping(bytes.as_ptr(), addr, bytes.len());
    protect(addr, bytes.len(), true, false, true);
}

/// Tests patch the routines: one at a time.
pub fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Installs rule and patches the entries to its routines.
pub fn install(rule: &Rule) {
    // SAFETY: the rules the tests install are the table's and forced ones;
    // one thread patches.
    unsafe {
        uarchcopy::install(rule);
        uarchcopy::patch(Some(poke)).expect("patch refused");
    }
}

/// Every rule of the CPUID table once, the baseline, each of their tables
/// once more as forced (which the table dispatch runs, reading the bounds
/// install() wrote, where the table's own compiled routines read none), and
/// every strategy of the flavor forced (its head aligned to 64 where it
/// aligns).
pub fn every_rule() -> Vec<Rule> {
    let mut rules: Vec<Rule> = Vec::new();
    let baseline = *uarchcopy::lookup(b"NoSuchVendor", 0, 0);
    for rule in uarchcopy::cpu_table().iter().map(|m| m.rule).chain(std::iter::once(baseline)) {
        if !rules.iter().any(|r| same_table(r, &rule)) {
            rules.push(rule);
        }
    }
    for i in 0..rules.len() {
        let mut forced = rules[i];
        forced.status = uarchcopy::Status::Forced;
        forced.reason = "the table dispatch";
        rules.push(forced);
    }
    for code in 0..uarchcopy::N_STRATEGIES as u8 {
        if let Some(rule) = uarchcopy::force(code, 64, "a test") {
            rules.push(rule);
        }
    }
    rules
}

/// Whether two rules hold one table, whatever their entries.
pub fn same_table(a: &Rule, b: &Rule) -> bool {
    (a.above_max, a.near_max, a.below_max, a.zero_mod, a.align_dst, a.n_bands, a.bands)
        == (b.above_max, b.near_max, b.below_max, b.zero_mod, b.align_dst, b.n_bands, b.bands)
}

/// The distances (dst - src) mod 4096 the sweeps take: every one below
/// 1 KiB and in the last 64 bytes below the source's page offset, and a
/// step through those between.
pub fn distances() -> Vec<usize> {
    (0..1024).chain((1024..4032).step_by(97)).chain(4032..4096).collect()
}

/// The lengths of a rule's edges: each band's last and the one after, and
/// those of the strategies' own limits.
pub fn edge_lengths(rule: &Rule) -> Vec<usize> {
    let mut n = vec![0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, 257, 300, 1000, 4096];
    for band in rule.bands.iter().take(rule.n_bands as usize) {
        if band.hi < 20000 {
            n.extend([band.hi, band.hi + 1]);
        }
    }
    n.sort_unstable();
    n.dedup();
    n
}

/// size bytes that repeat at no short period (a xorshift generator's).
pub fn pattern(size: usize) -> Vec<u8> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..size)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// A buffer of bytes that repeat at no short period, with a page-aligned
/// region for the source and one for the destination, far enough apart
/// never to overlap; every copy is checked against copy_within's, with
/// GUARD bytes either side that must not change.
pub struct Arena {
    buf: Vec<u8>,
    pristine: Vec<u8>,
    base: usize,
}

pub const GUARD: usize = 64;
const REGION: usize = 65536 + 4 * PAGE;

impl Default for Arena {
    fn default() -> Self {
        let pristine = pattern(2 * REGION + 2 * PAGE);
        let buf = pristine.clone();
        let base = (PAGE - buf.as_ptr() as usize % PAGE) % PAGE + PAGE;
        Arena { buf, pristine, base }
    }
}

impl Arena {
    /// Where a copy of n bytes at distance d (mod 4096) from a source at
    /// page offset src_off lies: (dst, src) as offsets into the buffer.
    pub fn place(&self, src_off: usize, d: usize) -> (usize, usize) {
        let src = self.base + src_off;
        let dst = self.base + REGION + (src_off + d) % PAGE;
        (dst, src)
    }

    /// Runs copy(dst, src, n) on the buffer and checks it: the destination
    /// holds the source, the GUARD bytes either side and the source are as
    /// before; then puts the bytes back.
    pub fn check(&mut self, dst: usize, src: usize, n: usize, copy: impl FnOnce(*mut u8, *const u8, usize)) -> Result<(), String> {
        let p = self.buf.as_mut_ptr();
        // SAFETY: both ranges lie inside the buffer (place()).
        unsafe { copy(p.add(dst), p.add(src), n) };
        let lo = dst - GUARD;
        let hi = dst + n + GUARD;
        let mut bad = None;
        for i in lo..hi {
            let want = if i >= dst && i < dst + n { self.pristine[src + i - dst] } else { self.pristine[i] };
            if self.buf[i] != want {
                bad = Some(if i < dst || i >= dst + n { format!("guard byte {} changed", i as isize - dst as isize) } else { format!("byte {} of {} is wrong", i - dst, n) });
                break;
            }
        }
        if bad.is_none() && dst != src && self.buf[src..src + n] != self.pristine[src..src + n] {
            bad = Some("the source changed".to_string());
        }
        self.buf[lo..hi].copy_from_slice(&self.pristine[lo..hi]);
        self.buf[src..src + n].copy_from_slice(&self.pristine[src..src + n]);
        bad.map_or(Ok(()), Err)
    }

    /// A copy onto itself (dst == src, legal for memcpy's callers): nothing changes.
    pub fn check_same(&mut self, at: usize, n: usize, copy: impl FnOnce(*mut u8, *const u8, usize)) -> Result<(), String> {
        let p = self.buf.as_mut_ptr();
        // SAFETY: the range lies inside the buffer.
        unsafe { copy(p.add(at), p.add(at), n) };
        if self.buf[at - GUARD..at + n + GUARD] == self.pristine[at - GUARD..at + n + GUARD] {
            Ok(())
        } else {
            self.buf.copy_from_slice(&self.pristine);
            Err(format!("a copy of {} bytes onto itself changed them", n))
        }
    }

    /// The address of buffer offset at.
    pub fn addr(&self, at: usize) -> usize {
        self.buf.as_ptr() as usize + at
    }
}
