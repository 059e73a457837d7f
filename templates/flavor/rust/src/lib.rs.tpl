${banner("//")}
@ local has_access = false
@ for _, r in ipairs(flavor.routines) do has_access = has_access or r.access end
//! The copy routines of flavor `${flavor.name}` for a kernel written in Rust:
//! the routines of `x86_64/copy.S` (the GAS form, the same bytes as
//! `copy.asm`), and, generated from the same database and plan as
//! `copy_rule.c`, the CPUID rule table, [`init`], which installs this CPU's
//! rule, and [`patch`], which points the entries at its routines through
//! the kernel's text poke. Until [`patch`] runs every copy is one forward
//! `rep movsb`, correct on every CPU.
//!
//! ```ignore
//! let rule = uarchcopy::init();
//! unsafe { uarchcopy::patch(Some(text_poke_early)) }.ok();
//! log!("memcpy: {:?}", rule); // memcpy: Rule { .. } (zen2, measured)
//! ```
#![no_std]
// copy.S says .intel_syntax noprefix, for gcc and clang; rustc's default.
#![allow(bad_asm_style)]

mod copies;
mod cpu_table;
mod describe;
mod install;
mod patch;
mod rule;

pub use copies::*;
pub use install::*;
pub use patch::*;
pub use rule::*;

// The routines, as the C build assembles them. raw: the file is assembly,
// not a format string (an AVX-512 mask is written {k1}). The path leaves
// the crate on purpose: the crate is part of out/${flavor.name}/, vendored whole,
// so that the routines exist once.
core::arch::global_asm!(include_str!("../../x86_64/copy.S"), options(raw));

@ if opts.memcpy_symbol then
// copy.S exports memcpy itself (generated with --memcpy-symbol): the
// feature memcpy adds nothing.
@ else
// The feature memcpy: memcpy is another name of ${opts.prefix}memcpy's entry, so
// that a call takes no hop on the way (a #[no_mangle] wrapper would be a
// jmp more). Strong, it takes the place of compiler_builtins' weak memcpy.
#[cfg(feature = "memcpy")]
core::arch::global_asm!(
    ".globl memcpy",
    ".type memcpy, @function",
    ".set memcpy, ${opts.prefix}memcpy"
);
@ end
