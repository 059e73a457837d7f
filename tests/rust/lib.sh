# Shared by tests/rust_crate.sh, tests/rust_floor.sh and tests/rust_mutate.sh;
# source it after tests/lib.sh. The toolchain in RUST_BIN goes ahead of any
# other on PATH: Debian's current Rust (make deps), where its packages put
# it, unless the script set RUST_BIN (tests/rust_floor.sh: the oldest Rust
# the crate declares); CI has only Debian's. CARGO_HOME lies in the scratch
# folder: cargo finds no other's subcommands and caches nothing.
RUST_BIN=${RUST_BIN:-/usr/bin}
RUST_SRC=/usr/lib/rustlib/src/rust/library
PATH=$RUST_BIN:$PATH
CARGO_HOME=$T/cargo-home
export PATH CARGO_HOME

# Every failure names the toolchain it came with: Debian's security updates
# move the current one, so a break says which version brought it.
RUST_VERSION=$("$RUST_BIN/rustc" --version 2>/dev/null || echo "no rustc in $RUST_BIN")
bad() { fail=$((fail + 1)); echo "FAIL $* ($RUST_VERSION)"; }

rust_missing() { # the Debian packages of the current toolchain that are not installed
	for p in rustc-web cargo-web rust-web-clippy rust-web-src; do
		dpkg-query -W -f '${db:Status-Status}\n' "$p" 2>/dev/null | grep -qx installed || printf ' %s' "$p"
	done
}

# count LOG: cargo test's own counts, "test result: ok. N passed; M failed".
count() {
	passed=$(sed -n 's/^test result: .* \([0-9]*\) passed; \([0-9]*\) failed.*/\1/p' "$1" | awk '{ s += $1 } END { print s + 0 }')
	failed=$(sed -n 's/^test result: .* \([0-9]*\) passed; \([0-9]*\) failed.*/\2/p' "$1" | awk '{ s += $1 } END { print s + 0 }')
	pass=$((pass + passed))
	fail=$((fail + failed))
}

# tested NAME STATUS: cargo test's counts from $T/test.log, and its failures;
# a run that failed with no test failing (it did not build) is one failure.
tested() {
	count "$T/test.log"
	if [ "$2" -eq 0 ]; then
		echo "$1: $passed passed"
		return
	fi
	[ "$failed" -gt 0 ] && echo "FAIL $1: $failed failed ($RUST_VERSION)" || bad "$1: it does not build or run"
	grep -E '^test .*FAILED|panicked|^error' "$T/test.log" | cut -c 1-300 | head -10 | sed 's/^/    /'
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
