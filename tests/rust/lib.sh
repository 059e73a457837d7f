# Shared by tests/rust_crate.sh and tests/rust_mutate.sh; source it after
# tests/lib.sh. Debian's toolchain (make deps) goes ahead of any other on
# PATH: CI has only Debian's, and the crate must build with it (Rust 1.63).
# CARGO_HOME lies in the scratch folder: cargo finds no other's
# subcommands and caches nothing.
RUST_BIN=${RUST_BIN:-/usr/bin}
RUST_SRC=${RUST_SRC:-/usr/lib/rustlib/src/rust/library}
PATH=$RUST_BIN:$PATH
CARGO_HOME=$T/cargo-home
export PATH CARGO_HOME

rust_missing() { # the Debian packages of the toolchain that are not installed
	for tool in rustc:rustc cargo:cargo cargo-clippy:rust-clippy; do
		[ -x "$RUST_BIN/${tool%%:*}" ] || printf ' %s' "${tool#*:}"
	done
	[ -f "$RUST_SRC/core/src/lib.rs" ] || printf ' %s' rust-src
}

rust_package() { # rust_package FLAVOR: the crate's package name
	sed -n 's/^name = "\(.*\)"$/\1/p' "out/$1/rust/Cargo.toml" | head -1
}

rust_features() { # rust_features FLAVOR: the harness's features for it, comma-separated
	{
		grep -q '^bytes-not-copied = ' "out/$1/rust/Cargo.toml" && echo user-copies
		grep -q 'pub fn move_within' "out/$1/rust/src/copies.rs" && echo memmove
	} | paste -sd, -
}

# rust_harness FLAVOR DIR: a kernel tree in DIR, as docs/vendoring.md ("Into
# a Rust kernel") says: out/FLAVOR/ copied whole into DIR/vendor, the crate
# a path dependency of tests/rust/'s tests.
rust_harness() {
	mkdir -p "$2" && cp -r "out/$1" "$2/vendor" && cp -r tests/rust/build.rs tests/rust/src tests/rust/tests "$2/" &&
		cat >"$2/Cargo.toml" <<-EOF
			[package]
			name = "uarchcopy-tests"
			version = "0.0.0"
			edition = "2021"
			publish = false

			[dependencies]
			uarchcopy = { path = "vendor/rust", package = "$(rust_package "$1")" }

			[features]
			user-copies = []
			memmove = []
			$(rust_features "$1" | grep -q user-copies && echo 'bytes-not-copied = ["uarchcopy/bytes-not-copied"]')

			# The sweeps run optimised, with every overflow and debug check kept.
			[profile.release]
			debug-assertions = true
			overflow-checks = true
		EOF
}

rust_test() { # rust_test FLAVOR DIR LOG: cargo test of the harness in DIR, its output in LOG
	set -- "$1" "$2" "$3" "$(rust_features "$1")"
	(cd "$2" && cargo test --offline --release --features "$4" -- --test-threads=1) >"$3" 2>&1
}
