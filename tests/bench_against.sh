#!/bin/sh
# make bench-against BASE=REV (bench/against/against.sh) owes a report that
# holds together, whatever core it runs on; it asserts no speed. Against
# HEAD: each flavor, and for each flavor whose out/ compiles a routine set,
# a set's line whose routines are the same now and at HEAD (REV's rule was
# installed and patched, not its baseline), then its two streams, each with
# its times and ratios, each timed in turns with rep movsb. A revision that
# is none, or none given, is refused.
# usage: tests/bench_against.sh   (needs what make builds, in a git checkout)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"

check "against HEAD, it runs" make -s bench-against BASE=HEAD
cp "$T/log" "$T/report"
for flavor in $(gen/uarchgen flavors | cut -d' ' -f1); do
	check "$flavor: the report has the flavor" grep -qx "$flavor:" "$T/report"
	sets=$(sed -n 's/^#define UC_N_ROUTINE_SETS \([0-9]*\)$/\1/p' "out/$flavor/copy_rule.h")
	[ "${sets:-0}" -gt 2 ] || continue
	awk -v f="$flavor:" '/^[a-z0-9_]+:$/ { on = $0 == f; next } on' "$T/report" >"$T/$flavor"
	check "$flavor: a routine set, the same now and at HEAD" \
		grep -Eq '^  [a-z0-9_]+, routines ([a-z0-9_]+) \(at HEAD: \1\):$' "$T/$flavor"
	check "$flavor: no set whose routines at HEAD differ" sh -c \
		"! grep -E '^  [a-z0-9_]+, routines ' '$T/$flavor' | grep -Ev '^  [a-z0-9_]+, routines ([a-z0-9_]+) \(at HEAD: \1\):$'"
	for stream in "random sizes" "sorted control"; do
		check "$flavor: each set's $stream, its times and ratios" test \
			"$(grep -c "^    $stream: now [0-9.]* ticks a call, at HEAD [0-9.]*: [0-9.]*x (now against itself [0-9.]*x; each timed in turns with rep movsb, [0-9.]*)$" "$T/$flavor")" \
			-eq "$(grep -c '^  [a-z0-9_]*, routines ' "$T/$flavor")"
	done
done
check "a revision that is none is refused, named" sh -c \
	"! KERNEL_CFLAGS=-O2 bench/against/against.sh no-such-revision 2>'$T/err' && grep -q \"'no-such-revision' is not a revision\" '$T/err'"
check "no revision: the usage, exit 2" sh -c \
	"KERNEL_CFLAGS=-O2 bench/against/against.sh 2>/dev/null; [ \$? -eq 2 ]"
check "--help" sh -c "bench/against/against.sh --help | grep -q 'usage: bench/against/against.sh REV'"
summary
