${banner("//")}
@ local P = opts.prefix
@ local remaining = opts.user_copy_result == "remaining"
@ local R = remaining and "usize" or "i32"
@ local has, has_access = {}, false
@ for _, r in ipairs(flavor.routines) do has[r.name] = true; has_access = has_access or r.access end
@ local args = {
@   copy = "dst: *mut u8, src: *const u8, n: usize) -> *mut u8",
@   move = "dst: *mut u8, src: *const u8, n: usize) -> *mut u8",
@   predicate = "dst: *const u8, src: *const u8, n: usize) -> i32",
@   to_user = "user_dst: *mut u8, src: *const u8, n: usize) -> " .. R,
@   from_user = "dst: *mut u8, user_src: *const u8, n: usize) -> " .. R,
@   clear_user = "user_dst: *mut u8, n: usize) -> " .. R,
@   fault_exit = ") -> " .. R,
@   isa = ") -> i32",
@ }
//! The routines of x86_64/copy.S: as they are ([`raw`]), and behind the
//! contracts a Rust caller expects.

/// Every routine the flavor lists, as copy.S exports it (copy_rule.h says the
/// same in C).
pub mod raw {
    extern "C" {
@ for _, r in ipairs(flavor.routines) do
        /// ${r.doc}.
        #[link_name = "${P}${r.name}"]
        pub fn ${r.name}(${args[r.kind]};
@ end
    }
}

/// Copies src into dst (of the same length) as the installed rule's table
/// says for their length and distance.
pub fn copy(dst: &mut [u8], src: &[u8]) {
    assert!(dst.len() == src.len(), "uarchcopy::copy: the slices differ in length");
    // SAFETY: two slices of one length, which cannot overlap.
    unsafe { raw::memcpy(dst.as_mut_ptr(), src.as_ptr(), src.len()) };
}
@ if has.memmove then

/// Moves buf[src] to buf[dest..], the two ranges overlapping or not, as
/// slice::copy_within does, by the installed rule's memmove.
pub fn move_within(buf: &mut [u8], src: core::ops::Range<usize>, dest: usize) {
    assert!(src.start <= src.end && src.end <= buf.len(), "uarchcopy::move_within: src is out of bounds");
    let n = src.end - src.start;
    assert!(dest <= buf.len() - n, "uarchcopy::move_within: dest is out of bounds");
    // SAFETY: both ranges lie in buf; memmove copies as if through a
    // buffer of its own.
    unsafe { raw::memmove(buf.as_mut_ptr().add(dest), buf.as_ptr().add(src.start), n) };
}
@ end
@ if has.copy_strategy then

/// The code (STRATEGY_*) of the strategy memcpy takes for a copy of n bytes
/// from address src to address dst.
pub fn copy_strategy(dst: usize, src: usize, n: usize) -> u8 {
    // SAFETY: it reads the installed table, not the buffers.
    unsafe { raw::copy_strategy(dst as *const u8, src as *const u8, n) as u8 }
}
@ end
@ if has_access then

/// A user copy met a fault the kernel did not serve: some or none of the
/// bytes were copied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Faulted;

/// What a user copy answers: Ok(()), or Err(Faulted) after a fault the
/// kernel did not serve.
#[cfg(not(feature = "bytes-not-copied"))]
pub type UserCopyResult = Result<(), Faulted>;
/// What a user copy answers (the feature bytes-not-copied, Linux's form):
/// the bytes not copied, 0 on success. ${remaining and "Exact on the forward paths; a fault on the descending or the small path answers all n." or "These routines answer only whether a fault ended them (generated with --user-copy-result status): after one, all n."}
#[cfg(feature = "bytes-not-copied")]
pub type UserCopyResult = usize;

#[cfg(not(feature = "bytes-not-copied"))]
fn answer(result: ${R}, _n: usize) -> UserCopyResult {
    if result == 0 {
        Ok(())
    } else {
        Err(Faulted)
    }
}

#[cfg(feature = "bytes-not-copied")]
fn answer(result: ${R}, ${remaining and "_n" or "n"}: usize) -> UserCopyResult {
@   if remaining then
    result
@   else
    if result == 0 {
        0
    } else {
        n
    }
@   end
}
@   if has.copy_from_user then

/// Copies dst.len() bytes from user memory at user_src into dst, by the
/// installed rule.
///
/// # Safety
///
/// user_src must be a user address: a fault there with rip in one of
/// [`user_access_ranges`] is the kernel's page-fault handler's to serve or
/// to send to [`user_fault_exit`] ([`fixup`]); any other fault is a bug.
pub unsafe fn copy_from_user(dst: &mut [u8], user_src: *const u8) -> UserCopyResult {
    answer(raw::copy_from_user(dst.as_mut_ptr(), user_src, dst.len()), dst.len())
}
@   end
@   if has.copy_to_user then

/// Copies src into user memory at user_dst, by the installed rule.
///
/// # Safety
///
/// As for [`copy_from_user`], for user_dst.
pub unsafe fn copy_to_user(user_dst: *mut u8, src: &[u8]) -> UserCopyResult {
    answer(raw::copy_to_user(user_dst, src.as_ptr(), src.len()), src.len())
}
@   end
@   if has.clear_user then

/// Zeroes n bytes of user memory at user_dst.
///
/// # Safety
///
/// As for [`copy_from_user`], for user_dst.
pub unsafe fn clear_user(user_dst: *mut u8, n: usize) -> UserCopyResult {
    answer(raw::clear_user(user_dst, n), n)
}
@   end

/// Where an instruction that touches user memory lies: [start, end). Every
/// such instruction of the user copies lies in one of
/// [`user_access_ranges`].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessRange {
    pub start: usize,
    pub end: usize,
}

extern "C" {
    #[link_name = "${P}user_access_ranges"]
    static ACCESS_RANGES: [AccessRange; 0];
    #[link_name = "${P}user_access_range_count"]
    static ACCESS_RANGE_COUNT: u64;
}

/// The user copies' access ranges, for the kernel's exception table: one
/// for each user copy and each routine patch() may send it to.
pub fn user_access_ranges() -> &'static [AccessRange] {
    // SAFETY: copy.S holds ACCESS_RANGE_COUNT pairs of addresses there.
    unsafe {
        core::slice::from_raw_parts(
            core::ptr::addr_of!(ACCESS_RANGES) as *const AccessRange,
            ACCESS_RANGE_COUNT as usize,
        )
    }
}

/// Where the page-fault handler sends rip for a fault in an access range
/// that it does not serve: the user copy then returns its failure (after
/// clac, where generated with --smap). Nothing is pushed inside a range, so
/// rsp at the fault is rsp at entry.
pub fn user_fault_exit() -> usize {
    raw::user_fault_exit as *const () as usize
}

/// The page-fault handler's question, for a fault at a user address that it
/// cannot serve: Some(the address to set rip to) where rip lies in an access
/// range, None where the fault is not the user copies' (an oops).
pub fn fixup(rip: usize) -> Option<usize> {
    user_access_ranges()
        .iter()
        .any(|r| r.start <= rip && rip < r.end)
        .then(user_fault_exit)
}
@ end
