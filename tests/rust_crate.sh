#!/bin/sh
# The Rust crate of out/<flavor>/rust/, vendored as docs/vendoring.md ("Into
# a Rust kernel") says (out/<flavor>/ copied whole, the crate a path
# dependency), with Debian's current rustc, cargo and clippy (rustc-web,
# cargo-web, rust-web-clippy), offline, no crate fetched: cargo test of
# tests/rust/ (the seed's kernel-copies tests ported, and the crate's table
# against copy_rule.c's), cargo clippy -D warnings on the crate (its default
# features and all), and a build for x86_64-unknown-none with no std
# (tests/rust/none/, core and compiler_builtins built by -Z build-std from
# rust-web-src), whose crate object may leave undefined no symbol but core's
# and the memcpy family's, and defines memcpy under the feature. Every
# failure names the toolchain's version. tests/rust_floor.sh builds the
# crate with the oldest Rust it declares.
# usage: tests/rust_crate.sh [FLAVOR...]   (default: every flavor)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"
. "$ROOT/tests/rust/lib.sh"
missing=$(rust_missing)
if [ -n "$missing" ]; then
	bad "the Rust toolchain is missing: install Debian's$missing (make deps)"
	summary
	exit
fi
flavors=${*:-$(gen/uarchgen flavors | cut -d' ' -f1)}

# -Z build-std builds core and compiler_builtins for x86_64-unknown-none
# (Debian ships neither prebuilt) from rust-web-src, whose library
# workspace resolves its crates from the copies vendored beside it. One
# target folder serves every flavor, so they are built once. The symbol
# check reads the crate's object against core's alone: an intrinsic the
# code takes from compiler_builtins shows there.
mkdir -p "$CARGO_HOME" && cat >"$CARGO_HOME/config.toml" <<EOF
[source.crates-io]
replace-with = "rust-src-vendor"

[source.rust-src-vendor]
directory = "$RUST_SRC/vendor"
EOF
NONE=$T/none-target
NONE_DEPS=$NONE/x86_64-unknown-none/release/deps

for f in $flavors; do
	[ -f "out/$f/rust/Cargo.toml" ] || { bad "$f: out/$f/rust/Cargo.toml is missing (make)"; continue; }
	package=$(rust_package "$f")
	features=$(rust_features "$f")
	K=$T/$f
	rust_harness "$f" "$K"
	rust_test "$f" "$K" "$T/test.log"
	tested "$f: cargo test" $?
	# A flavor with user copies runs their fault tests: a feature lost on
	# the way would skip them and pass.
	case ,$features, in *,user-copies,*) user_copies=1 ;; *) user_copies=0 ;; esac
	[ $user_copies = 0 ] || grep -q '^test user_copies_fault_at_every_position \.\.\. ok' "$T/test.log" ||
		bad "$f: the user copies' fault tests did not run"
	case ,$features, in
	*,memmove,*) grep -q '^test memmove_overlapping_every_rule \.\.\. ok' "$T/test.log" ||
		bad "$f: memmove's overlap tests did not run" ;;
	esac
	# The user copies again, under the crate's feature bytes-not-copied.
	if [ $user_copies = 1 ]; then
		(cd "$K" && cargo test --offline --release --features "$features,bytes-not-copied" --test user_faults \
			-- --test-threads=1) >"$T/test.log" 2>&1
		tested "$f: cargo test, bytes not copied" $?
	fi

	# clippy on the crate as vendored, in a copy: cargo writes Cargo.lock beside it.
	for all in "" --all-features; do
		check "$f: cargo clippy $all -D warnings" sh -c \
			"cd '$K/vendor/rust' && CARGO_TARGET_DIR='$T/clippy' cargo clippy --offline $all -- -D warnings"
	done

	# The kernel, for x86_64-unknown-none, with no std.
	N=$T/$f-none
	mkdir -p "$N" && cp -r tests/rust/none/src "$N/"
	cat >"$N/Cargo.toml" <<-EOF
		[package]
		name = "kernel"
		version = "0.0.0"
		edition = "2021"
		publish = false

		[lib]
		crate-type = ["staticlib"]

		[dependencies]
		uarchcopy = { path = "../$f/vendor/rust", package = "$package", features = ["memcpy"] }

		[features]
		user-copies = []
		memmove = []

		[profile.release]
		panic = "abort"
	EOF
	# The previous flavor's crate object, which has the same name, goes first.
	rm -f "$NONE_DEPS"/libuarchcopy-*
	if ! (cd "$N" && CARGO_TARGET_DIR=$NONE RUSTC_BOOTSTRAP=1 cargo build --offline --release \
		--target x86_64-unknown-none -Z build-std=core,compiler_builtins --features "$features") >"$T/none.log" 2>&1; then
		bad "$f: the crate does not build for x86_64-unknown-none"
		grep -E '^(error|warning)' -A5 "$T/none.log" | head -20
		continue
	fi
	ok
	rlib=$(ls "$NONE_DEPS"/libuarchcopy-*.rlib)
	nm "$rlib" 2>/dev/null | awk '$1 ~ /^[0-9a-f]+$/ && $2 ~ /[TDRBVW]/ { print $3 }' | sort -u >"$T/defined"
	nm "$NONE_DEPS"/libcore-*.rlib 2>/dev/null |
		awk '$1 ~ /^[0-9a-f]+$/ && $2 ~ /[TDRBVW]/ { print $3 }' | sort -u >>"$T/defined"
	sort -u -o "$T/defined" "$T/defined"
	nm -u "$rlib" 2>/dev/null | awk '$1 == "U" { print $2 }' | sort -u | comm -23 - "$T/defined" >"$T/outside"
	if grep -vxE 'memcpy|memmove|memset|memcmp|bcmp' "$T/outside" >"$T/foreign"; then
		bad "$f: the crate's object needs symbols outside the crate and core: $(tr '\n' ' ' <"$T/foreign")"
	else
		ok
	fi
	nm "$rlib" 2>/dev/null | grep -qE '^[0-9a-f]+ T memcpy$' && ok ||
		bad "$f: with the feature memcpy the crate's object defines no memcpy"
	echo "$f: x86_64-unknown-none: undefined but core's: $(tr '\n' ' ' <"$T/outside")"
done
summary
