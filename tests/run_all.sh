#!/bin/sh
# make check: runs every test program, shows each one's summary in order,
# and ends with the total as "N passed, N failed". Run from the repository
# root. The groups are independent (each works in its own scratch folder),
# so JOBS of them (default: one per CPU) run at once; a group's lines are
# printed, in the order below, as soon as it and those before it are done,
# with the seconds it took; the last line adds the whole run's.
set -u
began=$(date +%s)
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 1)}
total_pass=0
total_fail=0
status=0
D=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$D"' EXIT INT TERM
queued=0   # groups queued: group K's command is $D/K.sh, its name $D/K.name
started=0  # of them, started
shown=0    # of them, reported
# quote WORD: WORD as one single-quoted shell word.
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
run() { # run NAME COMMAND...: queues the group and starts what the pool allows
	printf '%s\n' "$1" >"$D/$queued.name"
	shift
	for a in "$@"; do quote "$a"; printf ' '; done >"$D/$queued.sh"
	queued=$((queued + 1))
	pump
}
running() { echo $((started - $(ls "$D" | grep -c '\.rc$') )); }
# pump: starts queued groups while fewer than JOBS run, and reports each
# finished group whose predecessors are reported.
pump() {
	while [ $started -lt $queued ] && [ "$(running)" -lt "$JOBS" ]; do
		k=$started
		(t0=$(date +%s); sh "$D/$k.sh" >"$D/$k.out" 2>&1; rc=$?
		 echo $(($(date +%s) - t0)) >"$D/$k.time"
		 echo $rc >"$D/$k.rc.tmp" && mv "$D/$k.rc.tmp" "$D/$k.rc") &
		started=$((started + 1))
	done
	while [ $shown -lt $started ] && [ -f "$D/$shown.rc" ]; do
		report $shown
		shown=$((shown + 1))
	done
}
report() { # report K: group K's summary line, and its failures
	printf '%-26s ' "$(cat "$D/$1.name")"
	rc=$(cat "$D/$1.rc")
	T=$D/$1.out
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$T" | tail -1)
	if [ -z "$line" ]; then
		# A program without a summary is one test: it passes by its exit status.
		if [ $rc -eq 0 ]; then line="1 passed, 0 failed"; else line="0 passed, 1 failed"; fi
	fi
	p=${line%% passed*}
	f=${line#*passed, }
	f=${f%% failed*}
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	printf '%-24s %4ss\n' "$line" "$(cat "$D/$1.time")"
	if [ $rc -ne 0 ] || [ "$f" -ne 0 ]; then
		grep -E '^(FAIL|SURVIVED|BROKEN)|rror' "$T" | head -20 | sed 's/^/    /'
		status=1
	fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}
run "out/ is current" gen/uarchgen check
run "template engine" build/test_template
run "database text" build/test_text
run "sha256, both rounds" tests/sha256.sh
run "out/ replaced whole" tests/out_atomic.sh
run "linear scale" tests/scale.sh
run "uarchgen commands" tests/gen_cli.sh
run "vendoring matrix" tests/vendor_matrix.sh
run "bad databases refused" tests/gen_bad_db.sh
run "syntax identity" tests/syntax_identity.sh
run "Rust crate" tests/rust_crate.sh
run "Rust crate, oldest Rust" tests/rust_floor.sh
run "mutants still apply" tests/mutations_apply.sh
run "plan: encoded trees" tests/plan_encode.sh
run "two flavors" tests/two_flavors.sh
run "a new strategy" tests/new_strategy.sh
run "README's walk" tests/readme_walk.sh
run "memmove's overlap compares" tests/memmove_guards.sh
run "no run IDs in comments" tests/comment_ids.sh
run "lookup fixtures" tests/lookup_fixtures.sh
run "CPUID identities" tests/identities.sh
run "Linux module, objtool" tests/linux/objtool.sh
run "Linux boot, QEMU" tests/linux/boot.sh
for flavor in $(gen/uarchgen flavors | cut -d' ' -f1); do
	B=build/$flavor
	run "$flavor: generated tests" $B/run_rule_tests
	run "$flavor: ABI harness" $B/abi_harness
	run "$flavor: instruction scan" tests/scan_test.sh "$flavor"
	run "$flavor: freestanding" tests/freestanding_link.sh "$flavor"
	run "$flavor: position-independent" tests/pic_link.sh "$flavor"
	if grep -q 'KIND_TO_USER, ' "out/$flavor/tests/routines.h"; then
		run "$flavor: user faults" $B/fault_tests
		run "$flavor: faults, remaining" $B/fault_tests_remaining
		run "$flavor: QEMU, GAS only" tests/kernel/run.sh "$flavor"
	fi
	if grep -q '^#define UC_FLAVOR_ISA "avx512"' "out/$flavor/copy_rule.h"; then
		run "$flavor: AVX-512 in Bochs" tests/kernel/run.sh "$flavor" bochs:tigerlake
	fi
	run "$flavor: fuzzer, short" sh -c 'd=$(mktemp -d) && cd "$d" && '"$PWD/$B"'/fuzz_copy -runs=300000 -max_len=160 -seed=1; rc=$?; rm -rf "$d"; exit $rc'
	run "$flavor: bench runs" tests/bench_runs.sh "$flavor"
	run "$flavor: mutation tests" tests/mutate.sh "$flavor"
done
run "probe derivation" build/test_derive
run "portable probe" tests/probe_cli.sh
run "probe: its search timed" build/probe_trials
run "import of run archives" tests/import_cli.sh
run "recorded runs, notes" tests/recorded_notes.sh
run "rederive" tests/rederive.sh
run "import: the dispatch" tests/import_dispatch.sh
run "git merge of uarch.db" tests/merge_git.sh
run "drop-in library, programs" tests/preload.sh
run "make install" tests/install.sh
run "bench against a revision" tests/bench_against.sh
# The queue is complete: wait for the last groups, reporting in order.
while [ $shown -lt $queued ]; do
	pump
	[ $shown -lt $queued ] && sleep 1
done
echo "$total_pass passed, $total_fail failed ($(($(date +%s) - began)) s)"
exit $status
