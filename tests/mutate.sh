#!/bin/sh
# Mutation testing: applies each defect of tests/mutations.txt to the
# generated assembly, links the generated tests, the ABI harness and the
# fault tests against the mutant, and counts the mutant killed when any fails. Prints "mutants killed: K of N"
# and, for the summary, "K passed, N-K failed".
# usage: tests/mutate.sh [-v]   (run from the repository root after make)
set -u
if [ "${1:-}" = "--help" ]; then
	sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi
verbose=${1:-}
B=build
for f in out/x86_64/copy.asm $B/rule_tests.o $B/copy_rule.o tests/run_rule_tests.c $B/abi_trampoline.o \
	$B/abi_broken.o; do
	[ -e "$f" ] || { echo "mutate: $f is missing: run make check first" >&2; exit 2; }
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
total=0
killed=0
broken=0
while IFS='|' read -r name script; do
	case "$name" in '#'* | '') continue ;; esac
	name=$(printf "%s" "$name" | sed "s/ *$//")
	script=$(printf "%s" "$script" | sed "s/^ *//")
	total=$((total + 1))
	sed "$script" out/x86_64/copy.asm >"$T/mutant.asm"
	if cmp -s out/x86_64/copy.asm "$T/mutant.asm"; then
		echo "BROKEN  $name: the mutation no longer applies to out/x86_64/copy.asm"
		broken=$((broken + 1))
		continue
	fi
	if ! nasm -f elf64 "$T/mutant.asm" -o "$T/mutant.o" 2>"$T/nasm.err" ||
		! cc -no-pie tests/run_rule_tests.c $B/rule_tests.o $B/copy_rule.o "$T/mutant.o" -o "$T/run" 2>"$T/cc.err" ||
		! cc -no-pie tests/abi_harness.c $B/abi_trampoline.o $B/abi_broken.o $B/copy_rule.o "$T/mutant.o" \
			-o "$T/abi" 2>>"$T/cc.err" ||
		! cc -no-pie -D_GNU_SOURCE tests/fault_tests.c $B/copy_rule.o "$T/mutant.o" -o "$T/faults" 2>>"$T/cc.err"; then
		echo "BROKEN  $name: the mutant does not build"
		cat "$T/nasm.err" "$T/cc.err" | head -5
		broken=$((broken + 1))
		continue
	fi
	if timeout 60 "$T/run" >"$T/out" 2>&1 && timeout 60 "$T/abi" >>"$T/out" 2>&1 &&
		timeout 60 "$T/faults" >>"$T/out" 2>&1; then
		echo "SURVIVED $name: the tests pass against it; a test is missing"
	else
		killed=$((killed + 1))
		if [ "$verbose" = "-v" ]; then
			echo "killed  $name: $(grep -m1 '^FAIL' "$T/out" || tail -1 "$T/out")"
		fi
	fi
done <tests/mutations.txt
echo "mutants killed: $killed of $total"
echo "$killed passed, $((total - killed)) failed"
[ "$killed" -eq "$total" ] && [ "$broken" -eq 0 ]
