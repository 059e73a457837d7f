#!/bin/sh
# Mutation testing of the Rust crate: applies each defect of
# tests/rust/mutations.txt to a vendored copy of out/<flavor>/ (the routines
# of copy.S the crate includes, or the crate's Rust), runs tests/rust/'s
# cargo test against it, and counts the mutant killed when the tests fail.
# Prints "mutants killed: K of N" and, for the summary, "K passed, N-K failed".
# usage: tests/rust_mutate.sh [-v] FLAVOR
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"
. "$ROOT/tests/rust/lib.sh"
. "$ROOT/tests/mutation_lines.sh"
verbose=
[ "${1:-}" = "-v" ] && { verbose=1; shift; }
F=${1:?usage: tests/rust_mutate.sh [-v] FLAVOR}
missing=$(rust_missing)
[ -z "$missing" ] || { bad "the Rust toolchain is missing: install Debian's$missing (make deps)"; summary; exit; }
K=$T/harness
rust_harness "$F" "$K" || { bad "cannot vendor out/$F"; summary; exit; }
# The unmutated crate first: a mutant counts only where it alone fails.
rust_test "$F" "$K" "$T/base.log" || { bad "the crate fails unmutated"; summary; exit; }
total=0 killed=0
mutation_lines tests/rust/mutations.txt "$(flavor_marks "$F")" >"$T/mutations"
while IFS='|' read -r name file script; do
	total=$((total + 1))
	sed "$script" "out/$F/$file" >"$K/vendor/$file"
	if cmp -s "out/$F/$file" "$K/vendor/$file"; then
		echo "BROKEN  $name: the mutation no longer applies to out/$F/$file"
		continue
	fi
	if rust_test "$F" "$K" "$T/mutant.log"; then
		echo "SURVIVED $name"
	else
		killed=$((killed + 1))
		[ -n "$verbose" ] && echo "killed  $name: $(grep -E '^test .*FAILED|^error|signal' "$T/mutant.log" | head -1)"
	fi
	cp "out/$F/$file" "$K/vendor/$file"
done <"$T/mutations"
echo "mutants killed: $killed of $total"
pass=$killed
fail=$((total - killed))
summary
