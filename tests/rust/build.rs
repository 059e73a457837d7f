// Builds the vendored copy_rule.c, the C rule table, into a static library
// for tests/agrees_with_c.rs: the crate's table and installer are checked
// against it. Only the test harness builds C; the crate builds none.
use std::env;
use std::path::PathBuf;
use std::process::Command;

fn run(command: &mut Command) {
    let status = command.status().unwrap_or_else(|e| panic!("{:?}: {}", command, e));
    assert!(status.success(), "{:?} failed", command);
}

fn main() {
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let vendor = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap()).join("vendor");
    let cc = env::var("CC").unwrap_or_else(|_| "cc".to_string());
    run(Command::new(&cc)
        .args(["-std=c99", "-O2", "-ffreestanding", "-mgeneral-regs-only", "-mno-red-zone", "-fPIE", "-c"])
        .arg(vendor.join("copy_rule.c"))
        .arg("-o")
        .arg(out.join("copy_rule.o")));
    run(Command::new("ar").arg("crs").arg(out.join("libcopy_rule_c.a")).arg(out.join("copy_rule.o")));
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=copy_rule_c");
    println!("cargo:rerun-if-changed=vendor/copy_rule.c");
}
