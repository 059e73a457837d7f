//! The user copies faulting at every position, through a test fault
//! handler: a SIGSEGV handler plays the kernel's page-fault handler with the
//! crate's access ranges as its exception table. A fault at a "user" address
//! with rip in a range is served (the page made accessible, the instruction
//! reruns) or refused (rip set to fixup()'s answer, the fault exit); any
//! other fault is an oops, which ends the test program.
#![cfg(feature = "user-copies")]

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};

use uarchcopy::Faulted;
use uarchcopy_tests::*;

const USER_PAGES: usize = 4;
const USER_SIZE: usize = USER_PAGES * PAGE;

static USER: AtomicUsize = AtomicUsize::new(0);
static SERVE: AtomicBool = AtomicBool::new(false);
static SERVED: AtomicUsize = AtomicUsize::new(0);
static REFUSED: AtomicUsize = AtomicUsize::new(0);

/// struct sigaction of glibc on x86-64.
#[repr(C)]
struct SigAction {
    handler: usize,
    mask: [u64; 16],
    flags: i32,
    restorer: usize,
}

extern "C" {
    fn sigaction(signal: i32, act: *const SigAction, old: *mut SigAction) -> i32;
    fn mmap(addr: *mut u8, len: usize, prot: i32, flags: i32, fd: i32, offset: i64) -> *mut u8;
    fn write(fd: i32, buf: *const u8, len: usize) -> isize;
    fn abort() -> !;
}
const SIGSEGV: i32 = 11;
const SA_SIGINFO: i32 = 4;
/// siginfo_t's si_addr, and the saved rip in ucontext_t (uc_mcontext.gregs[REG_RIP]).
const SI_ADDR: usize = 16;
const UC_RIP: usize = 40 + 16 * 8;

fn oops(what: &[u8]) -> ! {
    // SAFETY: async-signal-safe calls.
    unsafe {
        write(2, what.as_ptr(), what.len());
        abort()
    }
}

extern "C" fn on_segv(_signal: i32, info: *mut u8, context: *mut u8) {
    // SAFETY: the kernel's siginfo_t and ucontext_t for this fault.
    let (addr, rip) = unsafe { (*(info.add(SI_ADDR) as *const usize), &mut *(context.add(UC_RIP) as *mut usize)) };
    let user = USER.load(SeqCst);
    if addr < user || addr >= user + USER_SIZE {
        oops(b"user_faults: a fault outside user memory: an oops\n");
    }
    let exit = match uarchcopy::fixup(*rip) {
        Some(exit) => exit,
        None => oops(b"user_faults: a fault at a user address outside every access range: an oops\n"),
    };
    if SERVE.load(SeqCst) {
        // SAFETY: a page of the user mapping.
        unsafe { protect((addr & !(PAGE - 1)) as *mut u8, PAGE, true, true, false) };
        SERVED.fetch_add(1, SeqCst);
    } else {
        *rip = exit;
        REFUSED.fetch_add(1, SeqCst);
    }
}

/// What a user copy answered, as Result<(), Faulted>.
#[cfg(not(feature = "bytes-not-copied"))]
fn outcome(result: uarchcopy::UserCopyResult, _n: usize) -> Result<Result<(), Faulted>, String> {
    Ok(result)
}

/// The same under the crate's feature bytes-not-copied: 0, or after a fault
/// all n (the routines of out/ answer whether a fault ended them, not where).
#[cfg(feature = "bytes-not-copied")]
fn outcome(result: usize, n: usize) -> Result<Result<(), Faulted>, String> {
    match result {
        0 => Ok(Ok(())),
        r if r == n => Ok(Err(Faulted)),
        r => Err(format!("{} bytes not copied of {}", r, n)),
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Direction {
    ToUser,
    FromUser,
    Clear,
}

struct Memory {
    user: &'static mut [u8],
    kern: Vec<u8>,
    user_before: Vec<u8>,
    kern_before: Vec<u8>,
}

impl Memory {
    fn new() -> Memory {
        // SAFETY: a fresh anonymous mapping, and the handler for faults in it.
        let user = unsafe {
            let p = mmap(std::ptr::null_mut(), USER_SIZE, 3, 0x22, -1, 0);
            assert!(!p.is_null() && p as isize != -1, "mmap");
            let act = SigAction { handler: on_segv as usize, mask: [0; 16], flags: SA_SIGINFO, restorer: 0 };
            assert_eq!(sigaction(SIGSEGV, &act, std::ptr::null_mut()), 0);
            std::slice::from_raw_parts_mut(p, USER_SIZE)
        };
        USER.store(user.as_ptr() as usize, SeqCst);
        let user_before: Vec<u8> = (0..USER_SIZE).map(|i| (i * 7 + 3) as u8).collect();
        let kern_before: Vec<u8> = (0..USER_SIZE + 2 * PAGE).map(|i| (i * 13 + 101) as u8).collect();
        Memory { user, kern: kern_before.clone(), user_before, kern_before }
    }

    /// One user copy of n bytes whose user side ends `cut` bytes into the
    /// third page, its kernel side d bytes (mod 4096) above or below it.
    /// Serving: every user page it touches faults once and is served;
    /// refusing: the third page faults, after `n - cut` bytes on the
    /// forward path, and nobody serves it. None, or what went wrong.
    fn one(&mut self, dir: Direction, n: usize, cut: usize, d: usize, serve: bool) -> Option<String> {
        // SAFETY: the user mapping, made accessible again.
        unsafe { protect(self.user.as_mut_ptr(), USER_SIZE, true, true, false) };
        self.user.copy_from_slice(&self.user_before);
        self.kern.copy_from_slice(&self.kern_before);
        let uoff = 2 * PAGE + cut - n;
        let kbase = PAGE - self.kern.as_ptr() as usize % PAGE;
        let koff = kbase + (uoff + if dir == Direction::FromUser { d } else { PAGE - d }) % PAGE;
        let u = self.user[uoff..].as_mut_ptr();
        SERVE.store(serve, SeqCst);
        SERVED.store(0, SeqCst);
        REFUSED.store(0, SeqCst);
        // SAFETY: pages of the user mapping, which the handler opens again.
        unsafe {
            if serve {
                protect(self.user.as_mut_ptr(), USER_SIZE, false, false, false);
            } else {
                protect(self.user[2 * PAGE..].as_mut_ptr(), PAGE, false, false, false);
            }
        }
        let k = &mut self.kern[koff..koff + n];
        // SAFETY: user memory, whose faults the handler serves or refuses.
        let result = unsafe {
            match dir {
                Direction::ToUser => uarchcopy::copy_to_user(u, k),
                Direction::FromUser => uarchcopy::copy_from_user(k, u),
                Direction::Clear => uarchcopy::clear_user(u, n),
            }
        };
        // SAFETY: as above.
        unsafe { protect(self.user.as_mut_ptr(), USER_SIZE, true, true, false) };
        let result = match outcome(result, n) {
            Ok(result) => result,
            Err(why) => return Some(why),
        };
        let (served, refused) = (SERVED.load(SeqCst), REFUSED.load(SeqCst));
        let faults_past_cut = cut > 0;
        if serve && result != Ok(()) {
            return Some(format!("{:?} after served faults", result));
        }
        if serve && served == 0 {
            return Some("no fault was served: the case tested nothing".into());
        }
        if !serve && faults_past_cut && (result != Err(Faulted) || refused != 1) {
            return Some(format!("{:?} after a fault nobody served ({} refused)", result, refused));
        }
        // Outside the destination nothing changes; inside, each byte is the
        // old one or the copied one (some or none copied), all copied when served.
        let (mem, before, dst, want): (&[u8], &[u8], usize, Vec<u8>) = match dir {
            Direction::ToUser => (&*self.user, &self.user_before, uoff, self.kern_before[koff..koff + n].to_vec()),
            Direction::Clear => (&*self.user, &self.user_before, uoff, vec![0; n]),
            Direction::FromUser => (&self.kern, &self.kern_before, koff, self.user_before[uoff..uoff + n].to_vec()),
        };
        for (i, (&now, &was)) in mem.iter().zip(before.iter()).enumerate() {
            let inside = i >= dst && i < dst + n;
            if !inside && now != was {
                return Some(format!("byte {} outside the destination changed", i as isize - dst as isize));
            }
            if inside && now != want[i - dst] && (serve || now != was) {
                return Some(format!("destination byte {} is neither the old one nor the copied one", i - dst));
            }
        }
        let source_kept = match dir {
            Direction::FromUser => self.user[..] == self.user_before[..],
            _ => self.kern == self.kern_before,
        };
        if !source_kept {
            return Some("the source changed".into());
        }
        None
    }
}

#[test]
fn user_copies_fault_at_every_position() {
    let _serial = serial();
    let mut memory = Memory::new();
    let mut failures = Vec::new();
    // The table dispatch and each compiled table's own user copies (each
    // with its own access range), and every strategy forced.
    for rule in every_rule().iter().filter(|r| r.reason != "the table dispatch") {
        install(rule);
        for dir in [Direction::ToUser, Direction::FromUser, Direction::Clear] {
            for n in [1, 7, 8, 31, 32, 33, 63, 64, 65, 200, 300, 4096 + 100] {
                let step = if n > 300 { 61 } else { 1 };
                for d in [0, 16, 4064] {
                    for cut in (0..=n.min(PAGE)).step_by(step) {
                        for serve in [false, true] {
                            if serve && cut != n.min(PAGE) {
                                continue;
                            }
                            if let Some(why) = memory.one(dir, n, cut, d, serve) {
                                failures.push(format!("{:?}: {:?} n {} cut {} d {} {}: {}", rule, dir, n, cut, d, if serve { "served" } else { "refused" }, why));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} failures, first: {:?}", failures.len(), &failures[..failures.len().min(5)]);
}

#[test]
fn fixup_knows_the_access_ranges_alone() {
    let ranges = uarchcopy::user_access_ranges();
    assert!(!ranges.is_empty());
    for r in ranges {
        assert!(r.start < r.end, "{:?}", r);
        assert_eq!(uarchcopy::fixup(r.start), Some(uarchcopy::user_fault_exit()));
        assert_eq!(uarchcopy::fixup(r.end - 1), Some(uarchcopy::user_fault_exit()));
    }
    assert_eq!(uarchcopy::fixup(uarchcopy::raw::memcpy as usize), None);
}
