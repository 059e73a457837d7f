#!/bin/sh
# The probe as a user runs it, on copies of uarch.db: recording into the
# entry CPUID selects and into a new one, --dry-run, refusals, and an
# interrupted run that must leave the database and evidence untouched.
# Timings here use --quick: these tests check what is written, not its values.
# usage: tests/probe_cli.sh FLAVOR   (the probe built against out/FLAVOR/)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FLAVOR=${1:?usage: tests/probe_cli.sh FLAVOR}
PROBE=$ROOT/build/$FLAVOR/probe
GEN=$ROOT/gen/uarchgen
. "$ROOT/tests/lib.sh"
fresh() { # fresh DIR: a copy of the database with a copy of its evidence beside it
	rm -rf "$1" && mkdir -p "$1/evidence" && cp uarch.db "$1/uarch.db" &&
		for e in evidence/*/; do [ -d "$e" ] && cp -r "$ROOT/$e" "$1/evidence/"; done
	return 0
}

check "probe --help" sh -c "'$PROBE' --help | grep -q '^usage: probe'"
check "an unknown option exits 2" sh -c "'$PROBE' --frobnicate 2>/dev/null; test \$? -eq 2"

fresh "$T/dry"
"$PROBE" --quick --dry-run --db "$T/dry/uarch.db" >"$T/dry.out" 2>&1
rc=$?
entry=$(sed -n 's/^entry: \([a-z0-9_]*\).*/\1/p' "$T/dry.out")
if [ $rc -eq 2 ] && grep -q 'name a new one with --name' "$T/dry.out"; then
	entry=""
	ok
elif [ $rc -eq 0 ]; then
	check "--dry-run writes nothing to the database" cmp uarch.db "$T/dry/uarch.db"
	check "--dry-run writes no evidence" test "$(ls -A "$T/dry/evidence")" = "$(ls -A evidence | grep -v README.md)"
	check "--dry-run prints the rule" grep -q '^table: above_max' "$T/dry.out"
else
	bad "--dry-run exited $rc"
	cat "$T/dry.out"
fi
family=$(sed -n 's/.* family 0x\([0-9a-f]*\) model.*/\1/p' "$T/dry.out" | head -1)
model=$(sed -n 's/.* model 0x\([0-9a-f]*\) stepping.*/\1/p' "$T/dry.out" | head -1)

# ---- recording into the entry CPUID selects ----
if [ -n "$entry" ]; then
	fresh "$T/rec"
	check "--name contradicting CPUID exits 2" sh -c \
		"'$PROBE' --quick --name not_$entry --db '$T/rec/uarch.db' 2>&1 | grep -q 'contradicts'"
	check "a probe run records" "$PROBE" --quick --db "$T/rec/uarch.db"
	ev=$(sqlite3 "$T/rec/uarch.db" "SELECT evidence FROM rule WHERE uarch = '$entry' AND flavor = '$FLAVOR'")
	dir=$T/rec/$(dirname "$ev")
	check "the rule links its evidence folder" test -f "$T/rec/$ev"
	for f in measurements.csv choice.csv summary.md table.png plot.gp; do
		check "the evidence holds $f" test -s "$dir/$f"
	done
	check "the plot is a PNG" sh -c "head -c 8 '$dir/table.png' | od -c | grep -q 'P   N   G'"
	run_id=$(basename "$dir")
	rows=$(sqlite3 "$T/rec/uarch.db" "SELECT count(*) FROM measurement WHERE run = '$run_id'")
	check "the raw rows are in the database" test "$rows" -gt 100
	check "the rows match the CSV" test "$rows" -eq "$(($(wc -l <"$dir/measurements.csv") - 1))"
	check "the entry is now measured" test "$(sqlite3 "$T/rec/uarch.db" \
		"SELECT count(*) FROM measured_rule WHERE uarch = '$entry'")" -eq 1
	check "the database still generates" "$GEN" gen -q --db "$T/rec/uarch.db" --out "$T/rec/out"
	check "query shows the entry measured" sh -c "'$GEN' query --db '$T/rec/uarch.db' | grep -Eq '^$entry .* measured 20'"
	check "a second run gets its own evidence folder" "$PROBE" --quick --db "$T/rec/uarch.db"
	check "...and the first one stays" test -f "$T/rec/$ev"
fi

# ---- a CPU no entry holds gets a new one ----
if [ -n "$family" ] && [ -n "$model" ]; then
	fresh "$T/new"
	sqlite3 "$T/new/uarch.db" "
		DELETE FROM cpuid_range WHERE family = $((0x$family)) AND $((0x$model)) BETWEEN model_lo AND model_hi;
		DELETE FROM inherit WHERE uarch NOT IN (SELECT uarch FROM cpuid_range)
			OR from_uarch NOT IN (SELECT uarch FROM cpuid_range);
		DELETE FROM rule_band WHERE uarch NOT IN (SELECT uarch FROM cpuid_range);
		DELETE FROM rule WHERE uarch NOT IN (SELECT uarch FROM cpuid_range);
		DELETE FROM uarch WHERE name NOT IN (SELECT uarch FROM cpuid_range);"
	if "$PROBE" --quick --dry-run --db "$T/new/uarch.db" >/dev/null 2>&1; then
		echo "note: another entry still holds this CPU; the new-entry cases are skipped"
	else
		cp "$T/new/uarch.db" "$T/new/before.db"
		check "a CPU no entry holds needs --name" sh -c \
			"'$PROBE' --quick --db '$T/new/uarch.db' 2>&1 | grep -q 'name a new one with --name'; test \$? -eq 0"
		check "...and writes nothing" cmp "$T/new/uarch.db" "$T/new/before.db"
		check "--name creates the entry" "$PROBE" --quick --name probe_test_core --db "$T/new/uarch.db"
		check "the new entry has this CPU's range" test "$(sqlite3 "$T/new/uarch.db" \
			"SELECT count(*) FROM cpuid_range WHERE uarch = 'probe_test_core' AND family = $((0x$family)) \
			 AND model_lo = $((0x$model)) AND model_hi = $((0x$model))")" -eq 1
		check "the new entry generates" "$GEN" gen -q --db "$T/new/uarch.db" --out "$T/new/out"
		check "the new entry is in the rule table" grep -q '"probe_test_core"' "$T/new/out/$FLAVOR/copy_rule.c"
	fi
fi

# ---- interrupted runs and missing tools leave everything as it was ----
# On a CPU no entry holds, these runs name one, so that they get as far as measuring.
name_arg=${entry:+}
[ -n "$entry" ] || name_arg="--name probe_test_core"
for sig in INT TERM KILL; do
	fresh "$T/int"
	# shellcheck disable=SC2086
	"$PROBE" --db "$T/int/uarch.db" $name_arg >"$T/int.out" 2>&1 &
	pid=$!
	sleep 1
	kill -$sig $pid
	wait $pid
	rc=$?
	if [ $sig = KILL ]; then
		check "SIGKILL while measuring kills it" test $rc -eq 137
	else
		check "SIG$sig exits 1" test $rc -eq 1
		check "SIG$sig says nothing was written" grep -q 'interrupted; nothing was written' "$T/int.out"
	fi
	check "SIG$sig leaves uarch.db unchanged" cmp uarch.db "$T/int/uarch.db"
	check "SIG$sig leaves no new evidence" test "$(ls -A "$T/int/evidence")" = "$(ls -A evidence | grep -v README.md)"
done
# Two probes at once on one database: both runs are recorded, each under its
# own run id and evidence folder.
fresh "$T/two"
# shellcheck disable=SC2086
"$PROBE" --quick --db "$T/two/uarch.db" $name_arg >"$T/two1.out" 2>&1 & p1=$!
# shellcheck disable=SC2086
"$PROBE" --quick --db "$T/two/uarch.db" $name_arg >"$T/two2.out" 2>&1 & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
check "two probes at once both record" test $r1 -eq 0 -a $r2 -eq 0
check "...two runs, two evidence folders" test \
	"$(sqlite3 "$T/two/uarch.db" "SELECT count(DISTINCT run) FROM measurement")" -eq \
	"$(($(sqlite3 uarch.db "SELECT count(DISTINCT run) FROM measurement") + 2))" -a \
	"$(ls -A "$T/two/evidence" | wc -l)" -eq "$(($(ls -A evidence | grep -vc README.md) + 2))"
check "...and the database still generates" "$GEN" gen -q --db "$T/two/uarch.db" --out "$T/two/out"

# Killed outright (SIGKILL) while it waits on a database another process
# holds: nothing was recorded and no evidence folder appears. The lock is
# taken once the probe has read the database and is measuring.
fresh "$T/kill"
# shellcheck disable=SC2086
"$PROBE" --quick --db "$T/kill/uarch.db" $name_arg >"$T/kill.out" 2>&1 &
pid=$!
waited=0
while ! grep -q '^entry:' "$T/kill.out" && [ $waited -lt 100 ]; do sleep 0.05; waited=$((waited + 1)); done
( (echo "PRAGMA journal_mode=DELETE; BEGIN EXCLUSIVE; SELECT 1;"; sleep 6) | sqlite3 "$T/kill/uarch.db" >/dev/null 2>&1 ) &
holder=$!
# Its evidence written to the hidden folder, it next waits for the lock.
waited=0
while ! ls -A "$T/kill/evidence" | grep -q '^\.probe-' && [ $waited -lt 100 ]; do sleep 0.05; waited=$((waited + 1)); done
sleep 0.5
check "the probe is waiting on the lock when it is killed" kill -0 $pid
check "...with its evidence in a hidden folder" sh -c "ls -A '$T/kill/evidence' | grep -q '^\.probe-'"
kill -KILL $pid
wait $pid 2>/dev/null
wait $holder
check "SIGKILL while waiting on a locked database leaves uarch.db unchanged" cmp uarch.db "$T/kill/uarch.db"
check "...and no evidence folder but the hidden one" test \
	"$(ls -A "$T/kill/evidence" | grep -v '^\.probe-')" = "$(ls -A evidence | grep -v README.md)"
check "...and the database still generates" "$GEN" gen -q --db "$T/kill/uarch.db" --out "$T/kill/out"
# shellcheck disable=SC2086
"$PROBE" --quick --db "$T/kill/uarch.db" $name_arg >/dev/null 2>&1
check "the next probe removes the hidden folder the killed one left" sh -c \
	"! ls -A '$T/kill/evidence' | grep -q '^\.probe-'"

fresh "$T/tool"
check "a missing gnuplot is named before measuring" sh -c \
	"PATH=/nonexistent '$PROBE' --quick --db '$T/tool/uarch.db' $name_arg 2>&1 | grep -q 'gnuplot is missing'"
check "...and nothing is written" cmp uarch.db "$T/tool/uarch.db"
check "a missing database is named" sh -c "'$PROBE' --quick --db '$T/none.db' 2>&1 | grep -q 'cannot open the database'"

summary
