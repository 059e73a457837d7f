#!/bin/sh
# The Rust crate of out/<flavor>/rust/ under the oldest Rust it declares
# (rust-version in its Cargo.toml): Debian 12's own rustc and cargo, which
# conflict with the current ones, so make deps unpacks their packages into
# /opt/uarchcopy/rust-1.63 (RUST_FLOOR, tests/rust/floor.mk) and installs
# nothing. The rustc there must be the version the crate declares; the
# crate, vendored as tests/rust_crate.sh vendors it, builds offline with
# its default features and with all, and tests/rust/'s cargo test passes.
# A missing toolchain fails, naming make deps; every failure names the
# toolchain's version.
# usage: tests/rust_floor.sh [FLAVOR...]   (default: every flavor)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUST_FLOOR=${RUST_FLOOR:-/opt/uarchcopy/rust-1.63}
# Its rustc finds its sysroot beside itself, and its libraries here.
RUST_BIN=$RUST_FLOOR/usr/bin
LD_LIBRARY_PATH=$RUST_FLOOR/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
. "$ROOT/tests/lib.sh"
. "$ROOT/tests/rust/lib.sh"
if [ ! -x "$RUST_BIN/rustc" ] || [ ! -x "$RUST_BIN/cargo" ] || ! "$RUST_BIN/rustc" --version >/dev/null 2>&1; then
	bad "the crate's oldest Rust is missing from $RUST_FLOOR: make deps unpacks it there"
	summary
	exit
fi
flavors=${*:-$(gen/uarchgen flavors | cut -d' ' -f1)}

declared() { # declared FLAVOR: the crate's rust-version
	sed -n 's/^rust-version = "\(.*\)"$/\1/p' "out/$1/rust/Cargo.toml"
}

# control DIR: the vendored crate in DIR with a function in let-else (Rust
# 1.65) added, which must not build here.
control() {
	cp -r "$1" "$T/late" &&
		printf '\npub fn late(x: Option<u8>) -> u8 {\n    let Some(y) = x else { return 0 };\n    y\n}\n' >>"$T/late/rust/src/lib.rs"
	if (cd "$T/late/rust" && CARGO_TARGET_DIR=$T/build cargo build --offline) >"$T/late.log" 2>&1; then
		bad "control: a crate in let-else (Rust 1.65) builds with $RUST_FLOOR"
	else
		ok
	fi
	rm -rf "$T/late"
}

for f in $flavors; do
	[ -f "out/$f/rust/Cargo.toml" ] || { bad "$f: out/$f/rust/Cargo.toml is missing (make)"; continue; }
	v=$(declared "$f")
	[ -n "$v" ] || { bad "$f: the crate declares no rust-version"; continue; }
	case "$RUST_VERSION " in
	"rustc $v".[0-9]*" " | "rustc $v "*) ok ;;
	*) bad "$f: the crate declares Rust $v, and $RUST_FLOOR holds another"; continue ;;
	esac
	K=$T/$f
	rust_harness "$f" "$K"
	# The crate as vendored, in the copy: cargo writes Cargo.lock beside it.
	for all in "" --all-features; do
		check "$f: cargo build $all" sh -c "cd '$K/vendor/rust' && CARGO_TARGET_DIR='$T/build' cargo build --offline $all"
	done
	rust_test "$f" "$K" "$T/test.log"
	tested "$f: cargo test" $?
	control "$K/vendor"
done
summary
