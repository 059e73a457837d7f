//! A kernel's use of the vendored crate, built for x86_64-unknown-none with
//! no std and no C, as docs/vendoring.md ("Into a Rust kernel") says: the
//! boot calls init() and patch() and logs the rule, the page-fault handler
//! asks fixup(), a system call copies from user memory. tests/rust_crate.sh
//! builds it and reads the crate's object for what it leaves undefined.
#![no_std]

use core::fmt::Write;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}

/// The kernel's console, here a buffer.
pub struct Log {
    pub bytes: [u8; 512],
    pub len: usize,
}

impl Write for Log {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for &b in s.as_bytes() {
            if self.len < self.bytes.len() {
                self.bytes[self.len] = b;
                self.len += 1;
            }
        }
        Ok(())
    }
}

/// The kernel's text poke at boot, before the other CPUs start: the text
/// is still writable.
unsafe fn text_poke_early(addr: *mut u8, bytes: &[u8]) {
    core::ptr::copy_nonoverlapping(bytes.as_ptr(), addr, bytes.len());
}

/// The boot: this CPU's rule installed, the entries patched, the log line.
#[no_mangle]
pub extern "C" fn kernel_boot(log: &mut Log) -> bool {
    let rule = uarchcopy::init();
    // SAFETY: at boot, one CPU, and a poke that writes the code.
    let patched = unsafe { uarchcopy::patch(Some(text_poke_early)) }.is_ok();
    let _ = write!(log, "memcpy: {:?}", rule);
    patched
}

/// The page-fault handler's exception table, for a fault at a user address
/// it cannot serve: where to resume, or 0 for an oops.
#[cfg(feature = "user-copies")]
#[no_mangle]
pub extern "C" fn kernel_fault_fixup(rip: usize) -> usize {
    uarchcopy::fixup(rip).unwrap_or(0)
}

/// A read(2): n bytes from user memory.
///
/// # Safety
///
/// dst must hold n bytes; user is a user address.
#[cfg(feature = "user-copies")]
#[no_mangle]
pub unsafe extern "C" fn kernel_read(dst: *mut u8, n: usize, user: *const u8) -> bool {
    uarchcopy::copy_from_user(core::slice::from_raw_parts_mut(dst, n), user).is_ok()
}
