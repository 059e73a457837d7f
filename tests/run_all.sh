#!/bin/sh
# make check: runs every test program, shows each one's summary, and ends
# with the total as "N passed, N failed". Run from the repository root.
set -u
total_pass=0
total_fail=0
status=0
T=$(mktemp)
trap 'rm -f "$T"' EXIT INT TERM
run() { # run NAME COMMAND...
	name=$1; shift
	printf '%-22s ' "$name"
	"$@" >"$T" 2>&1
	rc=$?
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$T" | tail -1)
	if [ -z "$line" ]; then
		# A program without a summary is one test: it passes by its exit status.
		if [ $rc -eq 0 ]; then line="1 passed, 0 failed"; else line="0 passed, 1 failed"; fi
	fi
	p=${line%% passed*}
	f=${line#*passed, }
	f=${f%% failed*}
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	echo "$line"
	if [ $rc -ne 0 ] || [ "$f" -ne 0 ]; then
		grep -E '^(FAIL|SURVIVED|BROKEN)|rror' "$T" | head -20 | sed 's/^/    /'
		status=1
	fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}
run "out/ is current" gen/uarchgen check
run "template engine" build/test_template
run "uarchgen commands" tests/gen_cli.sh
run "generated tests" build/run_rule_tests
run "ABI harness" build/abi_harness
run "user-copy faults" build/fault_tests
run "instruction scan" tests/scan_test.sh
run "freestanding link" tests/freestanding_link.sh
run "kernel under QEMU" tests/kernel/run.sh
run "fuzzer, short pass" sh -c 'd=$(mktemp -d) && cd "$d" && '"$PWD"'/build/fuzz_copy -runs=300000 -max_len=16 -seed=1; rc=$?; rm -rf "$d"; exit $rc'
run "probe derivation" build/test_derive
run "probe commands" tests/probe_cli.sh
run "bench runs" sh -c 'd=$(mktemp -d) && build/bench --samples 1 --out "$d" && test -s "$d/bench.png"; rc=$?; rm -rf "$d"; exit $rc'
run "mutation tests" tests/mutate.sh
echo "$total_pass passed, $total_fail failed"
exit $status
