${banner("#")}
@ local has_access = false
@ for _, r in ipairs(flavor.routines) do has_access = has_access or r.access end
# The copies of flavor ${flavor.name} as a no_std crate with no dependencies,
# for a Rust kernel that builds no C: the routines of ../x86_64/copy.S
# through global_asm!, and the rule table, its CPUID lookup, the installer
# and the patch in Rust (docs/vendoring.md, "Into a Rust kernel").
[package]
name = "uarchcopy-${flavor.name}"
version = "${gen.version}.0.0"
edition = "2021"
rust-version = "1.63"
publish = false

[lib]
name = "uarchcopy"
path = "src/lib.rs"

[features]
# memcpy: export the rule's copy as a strong memcpy, which takes the place of
# compiler_builtins' weak one.
memcpy = []
@ if has_access then
# bytes-not-copied: the user copies answer the bytes not copied (Linux's
# form) instead of Result<(), Faulted>.
bytes-not-copied = []
@ end
