#!/bin/sh
# Version 26's search (derive/search.h) as the import reads it: the table
# its check kept, derived again from the points, and checks that
# contradict them refused. Then probe versions 3 to 25 as the import reads
# them, forged from the same archive (as_version, tests/lib.sh): the dispatch's cost under the
# random-size workload and the final candidates the probe timed, recorded
# in the archive, shown in summary.md, and the rule derived at the
# candidate the probe kept, with the ranges its band trials (version 7)
# kept whole and small_flat where its small trial (version 8) kept it, or,
# where every candidate lost, the table its shaped trial (version 9) kept.
# Version 2 archives (no such lines) still import, with the default cost,
# and say so. Archives are the probe's own --quick
# runs on this machine, forged to a Zen 2 (tests/forge_archive.sh) so that
# the entry never depends on the machine; the dispatch lines are then
# rewritten to name a choice, so that which candidate wins here does not
# decide what is tested.
# usage: tests/import_dispatch.sh   (needs build/uarchcopy-probe)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROBE=$ROOT/build/uarchcopy-probe
GEN=$ROOT/gen/uarchgen
FORGE=$ROOT/tests/forge_archive.sh
. "$ROOT/tests/lib.sh"
edit() { # edit IN OUT SED-SCRIPT: OUT is IN edited, with its checksum made again
	sed "$3" "$1" >"$2" && sha_again "$2"
}
dry() { "$GEN" import --dry-run --db "$T/uarch.db" "$1" >"$T/dry.out" 2>&1; }
refused() { # refused NAME ARCHIVE MESSAGE
	"$GEN" import --dry-run --db "$T/uarch.db" "$2" >"$T/refused.out" 2>&1
	rc=$?
	check "$1: refused" test $rc -eq 1
	check "$1: says why ($3)" grep -q -- "$3" "$T/refused.out"
}
cp uarch.db "$T/uarch.db"
mkdir "$T/probe" && "$PROBE" --quick --out "$T/probe" >"$T/probe.out" 2>&1
check "the probe wrote both flavors' archives" test "$(ls "$T"/probe/*.run | wc -l)" -eq 2
check "...and said what a band costs" grep -q 'each band past the first costs [0-9.]* ticks a call' "$T/probe.out"
check "...and each table the search checked" grep -q '^  check: table 1: ' "$T/probe.out"
"$FORGE" "$(ls "$T"/probe/*-kernel-*.run)" "$T/k.run" AuthenticAMD 00830f10 none "AMD EPYC 7502 32-Core Processor"
A=$T/k.run
check "the archive is version 32" grep -qx 'probe 32' "$A"
for k in 1 2 4 8; do
	check "it holds the $k-band table's timings" grep -Eq "^dispatch $k [0-9]+\\.[0-9]{2} [0-9]+\\.[0-9]{2}\$" "$A"
done
check "it holds the search's checks, one a line" sh -c "grep -Eq '^search [0-6]\$' '$A' &&
	test \$(grep -c '^check ' '$A') -eq \$(sed -n 's/^search //p' '$A')"
check "...each a ranked table's timings and verdict" sh -c "! grep '^check ' '$A' | grep -Evq '^check [1-5] (plain|flat) [0-9]+( [0-9]+\\.[0-9]{2}){4} (lost|passed|kept)\$'"
check "...and no candidate or trial line" sh -c "! grep -Eq '^(candidate|baseline|chosen|trials|small_trial|shaped|classes) ' '$A'"
# Version 26's search: the table kept is the one its check names,
# derived again from the points; a check naming a table of another number
# of bands, or out of order, is refused.
searched() { # searched OUT BANDS VERDICT: A with one check of table 1, the gate passed
	first=$(grep -m1 '^check 1 plain ' "$A" | awk -v b="$2" -v v="$3" '{ $4 = b == "" ? $4 : b; $NF = v; print }')
	awk -v first="$first" -v v="$3" '/^search / { print "search 1"; print first; next } /^check / { next }
		/^grid_gate / { print v == "kept" ? "grid_gate 1.010 256 63 passed" : "grid_gate none"; next }
		/^repairs / { print "repairs 0"; next } /^repair / { next } { print }' "$A" >"$1" && sha_again "$1"
}
bands1=$(grep -m1 '^check 1 plain ' "$A" | cut -d' ' -f4)
searched "$T/kept.run" "" kept
dry "$T/kept.run"
check "a search that kept table 1: the rule is that table, its bands" sh -c \
	"grep -q 'The search ranked this table 1st by the model' '$T/dry.out' && test \$(sed -n 's/^table: [^:]*: //p' '$T/dry.out' | tr ';' '\\n' | wc -l) -eq $bands1"
check "...and summary.md says its gate timed each median over the noise twice more, the last in a process of its own, judged by Holm's procedure over every point" grep -q \
	"the last in a process of its own, a loss where every timing's median is over the noise and the sign test of all its rounds survives Holm's procedure over every point judged" "$T/dry.out"
check "...and summary.md shows each check" grep -q '^| \*\*1\*\* | fitted at [014] times the band cost | ' "$T/dry.out"
searched "$T/lost.run" "" lost
dry "$T/lost.run"
check "a search whose every check lost: every copy forward, saying why" sh -c \
	"grep -Eq '^table: .*: 0\\.\\. forward\$' '$T/dry.out' && grep -q 'every table the search ranked and checked' '$T/dry.out'"
searched "$T/wrongbands.run" $((bands1 % 16 + 1)) kept
refused "a kept check whose table the points derive otherwise" "$T/wrongbands.run" "the archive contradicts its own points"
edit "$T/kept.run" "$T/twokept.run" 's/^search 1$/search 2/; /^check 1 plain/{p;s/^check 1/check 2/}'
refused "two tables kept" "$T/twokept.run" "at most one table is kept"
edit "$T/kept.run" "$T/badcheck.run" 's/^\(check 1 plain [0-9]*\) .*/\1 9.00 kept/'
refused "a check line cut short" "$T/badcheck.run" "expected 'check RANK plain|flat BANDS"

# Every older version's lines, from this archive (tests/lib.sh).
A25=$T/k25.run
as_version "$A" "$A25" 25

# A known cost and each choice: 1, 2, 4, 8 bands at 0, 1, 3 and 7 ticks
# over the sorted stream, a slope of one tick a band; no trial (the
# probe's were of its own choice, which this one replaces).
known=$T/known.run
edit "$A25" "$known" 's/^dispatch \([1248]\) .*/dispatch \1 X/; s/^dispatch 1 X/dispatch 1 10.00 10.00/; s/^dispatch 2 X/dispatch 2 11.00 10.00/; s/^dispatch 4 X/dispatch 4 13.00 10.00/; s/^dispatch 8 X/dispatch 8 17.00 10.00/; s/^chosen .*/chosen 1/; /^trial /d; s/^trials .*/trials 0/; s/^small_trial .*/small_trial none/; s/^shaped .*/shaped none/; s/^classes .*/classes none/; s/^grid_gate .*/grid_gate 1.010 256 63 passed/; s/^repairs .*/repairs 0/; /^repair /d'
dry "$known"
check "the measured cost derives the rule" grep -q 'charged 1.00 ticks a call, what a band cost a random-size workload as the probe measured it' "$T/dry.out"
check "summary.md shows the dispatch timings" grep -q '^| 8 | 17.00 | 10.00 | 7.00 |$' "$T/dry.out"
check "...and the band cost, their slope" grep -q 'Each band past the first costs 1.00 ticks a call' "$T/dry.out"
check "...and that each table was timed in turns with rep movsb alone, at three places (version 11 on)" grep -q 'never two tables in turns with each other, each table compiled at 3 places' "$T/dry.out"
edit "$known" "$T/v10.run" '/^repairs* /d; s/^probe 25$/probe 10/; /^classes /d; /^grid_gate /d'
dry "$T/v10.run"
check "a version 10 archive's summary does not say so" sh -c "! grep -q 'never two tables in turns' '$T/dry.out'"
check "...and the kept candidate" grep -q '^| \*\*1 times the band cost (kept)\*\* |' "$T/dry.out"
edit "$known" "$T/four.run" 's/^chosen .*/chosen 4/'
dry "$T/four.run"
check "chosen 4: the rule is derived at four times the cost" grep -q 'charged 4.00 ticks a call, 4 times what a band cost' "$T/dry.out"
edit "$known" "$T/none.run" 's/^chosen .*/chosen 0/'
dry "$T/none.run"
check "chosen 0: no dispatch cost charged" grep -q 'Bands were charged no dispatch cost' "$T/dry.out"
edit "$known" "$T/base.run" 's/^chosen .*/chosen baseline/; s/^shaped .*/shaped 4 14.00 9.00 15.00 10.00 not/; s/^grid_gate .*/grid_gate none/'
dry "$T/base.run"
check "chosen baseline: every copy forward" grep -Eq '^table: .*: 0\.\. forward$' "$T/dry.out"
check "...and its note says why" grep -q 'every table derived from the measurements was slower than forward' "$T/dry.out"
check "...and the summary marks it kept" grep -q '^| \*\*every copy forward (kept)\*\* | 1 |' "$T/dry.out"
check "...with the tie threshold the run's noise gave, not 0" sh -c \
	"grep -q 'a difference under [0-9.]*%' '$T/dry.out' && ! grep -q 'a difference under 0\.0%' '$T/dry.out'"
# Version 9's shaped trial: where every candidate lost, the table the
# trials made of the fastest (here, with no trial, the candidate at 4) is
# the rule where it beat every copy forward.
edit "$known" "$T/shaped.run" 's/^chosen .*/chosen baseline/; s/^shaped .*/shaped 4 12.00 9.00 15.00 10.00 kept/'
dry "$T/four.run"
sed -n 's/^table: [^:]*: //p' "$T/dry.out" >"$T/four.rule"
dry "$T/shaped.run"
check "a shaped table kept: the rule is the candidate it was shaped from" sh -c \
	"sed -n 's/^table: [^:]*: //p' '$T/dry.out' | cmp -s - '$T/four.rule' && grep -q ';' '$T/four.rule'"
check "...its note says how it was made" grep -q 'Every candidate lost to every copy forward; the trials shaped the fastest' "$T/dry.out"
check "...and summary.md shows the trial, every copy forward not kept" sh -c \
	"grep -q '^| shaped | 12.00 | 9.00 |\$' '$T/dry.out' && grep -q '^\*\*Kept\*\*: the rule is the shaped table\.\$' '$T/dry.out' &&
	 grep -q '^| every copy forward | 1 |' '$T/dry.out'"
check "a shaped table not kept: every copy forward, and summary.md says so" sh -c \
	"'$GEN' import --dry-run --db '$T/uarch.db' '$T/base.run' | grep -q '^Not kept: every copy forward stays\.\$'"
edit "$known" "$T/noshape.run" 's/^chosen .*/chosen baseline/'
refused "'shaped none' where the baseline was chosen" "$T/noshape.run" "'shaped none' where the baseline was chosen"
edit "$known" "$T/shapedkept.run" 's/^shaped .*/shaped 4 12.00 9.00 15.00 10.00 kept/'
refused "a shaped trial where a candidate was chosen" "$T/shapedkept.run" "only a run that kept the baseline shapes one"
edit "$known" "$T/badshape.run" 's/^shaped .*/shaped 3 12.00 9.00 15.00 10.00 kept/'
refused "a shaped trial from no candidate's multiple" "$T/badshape.run" "expected 'shaped none' or 'shaped MULTIPLE"
edit "$known" "$T/noshapeline.run" '/^shaped /d'
refused "a version 18 archive without its shaped line" "$T/noshapeline.run" "expected 'shaped none' or 'shaped MULTIPLE"
# Version 12's grid gate: a kept table it refused derives every copy
# forward, and the note and summary.md say where it lost; one it passed is
# the table (the known archive above).
edit "$known" "$T/gated.run" 's/^grid_gate .*/grid_gate 1.677 128 1 refused/'
dry "$T/gated.run"
check "a table the grid gate refused: the rule is every copy forward" grep -q '^table: above_max 0, near_max 0, below_max 0, zero_mod 4096, align_dst 0: 0\.\. forward$' "$T/dry.out"
check "...and the note says where it lost" grep -q 'beyond the noise on make bench.s grid, 1.677x at 128 bytes, d = 1 (the grid gate)' "$T/dry.out"
check "...and summary.md says so" grep -q 'worst 1.677x at 128 bytes, d = 1. \*\*Refused\*\*' "$T/dry.out"
dry "$known"
check "a table the grid gate passed is the table" sh -c "grep -q 'Passed\.' '$T/dry.out' && ! grep -q '^table: .*: 0\.\. forward$' '$T/dry.out'"
check "...and a version 25 archive's summary.md says its gate timed each loss twice more" sh -c \
	"grep -q 'a loss beyond the noise timed twice more' '$T/dry.out' && ! grep -q 'a sign test' '$T/dry.out'"
edit "$known" "$T/nogate.run" 's/^grid_gate .*/grid_gate none/'
refused "'grid_gate none' where a table was kept" "$T/nogate.run" "'grid_gate none' where a table was kept"
edit "$T/base.run" "$T/basegate.run" 's/^grid_gate .*/grid_gate 1.010 256 63 passed/; s/^repairs .*/repairs 0/; /^repair /d'
refused "a grid gate where no table was kept" "$T/basegate.run" "a grid gate where no table was kept"
edit "$known" "$T/badgate.run" 's/^grid_gate .*/grid_gate 1.010 256 passed/'
refused "a grid gate line cut short" "$T/badgate.run" "expected 'grid_gate none' or 'grid_gate WORST LENGTH DISTANCE"
edit "$known" "$T/nogateline.run" '/^grid_gate /d'
refused "a version 18 archive without its grid gate line" "$T/nogateline.run" "grid_gate"
check "a version 18 archive imports" "$GEN" import --db "$T/uarch.db" "$known"
# Version 15's classes trial: where every candidate and the shaped table
# lost, the trials' table copying forward but in the classes above, near
# and below is the rule where it tied every copy forward. Both rep movsb
# copies (forward and forward_aligned) forged to stall at d = 1, 16 and 31
# from 64 bytes, as a stall slows both, whatever this CPU measured: the
# class above then copies down, the one copy left there, on any CPU.
awk '($1 == "forward" || $1 == "forward_aligned") && ($3 == 1 || $3 == 16 || $3 == 31) && $2 >= 64 {
	for (i = 5; i <= NF; i++) $i = "5000.00" } { print }' "$T/base.run" >"$T/stall.run" && sha_again "$T/stall.run"
edit "$T/stall.run" "$T/classes.run" 's/^classes .*/classes 12.10 12.00 12.00 12.00 kept/; s/^grid_gate .*/grid_gate 1.010 64 0 passed/'
dry "$T/classes.run"
check "a classes table kept: the rule copies forward but above the source" sh -c \
	"sed -n 's/^table: [^:]*: //p' '$T/dry.out' | tr ';' '\n' | grep -q 'forward, above down' &&
	 ! sed -n 's/^table: [^:]*: //p' '$T/dry.out' | tr ';' '\n' | grep -v '^ *[0-9.]* forward\(, \(above\|near\|below\) [a-z_]*\)*\$' | grep -q ."
check "...its note says how it was made" grep -q 'Every copy forward but in the classes where forward stalls' "$T/dry.out"
check "...and summary.md shows the trial, every copy forward not kept" sh -c \
	"grep -q '^| classes | 12.10 | 12.00 |\$' '$T/dry.out' && grep -q '^\*\*Kept\*\*: the rule is the classes table\.\$' '$T/dry.out' &&
	 grep -q '^| every copy forward | 1 |' '$T/dry.out'"
check "...and that its zero test waits behind a compare (version 20)" grep -q 'a zero test of d mod zero_mod only past one compare of the last such class.s bound, probe version 20' "$T/dry.out"
edit "$T/classes.run" "$T/classes19.run" '/^repairs* /d; s/^probe 25$/probe 19/'
dry "$T/classes19.run"
check "...a version 19 archive's does not" sh -c "grep -q '^| classes | 12.10 | 12.00 |\$' '$T/dry.out' && ! grep -q 'probe version 20' '$T/dry.out'"
edit "$T/stall.run" "$T/classesnot.run" 's/^classes .*/classes 12.50 12.00 12.00 12.00 not/'
dry "$T/classesnot.run"
check "a classes table not kept: every copy forward, and summary.md says so" sh -c \
	"grep -Eq '^table: .*: 0\.\. forward\$' '$T/dry.out' && grep -q '^Not kept: every copy forward stays\.\$' '$T/dry.out'"
edit "$known" "$T/classeskept.run" 's/^classes .*/classes 12.10 12.00 12.00 12.00 kept/'
refused "a classes trial where a table was kept" "$T/classeskept.run" "a classes trial where a table was kept"
edit "$T/classes.run" "$T/badclasses.run" 's/^classes .*/classes 12.10 12.00 12.00 kept/'
refused "a classes line cut short" "$T/badclasses.run" "expected 'classes none' or 'classes TABLE_RANDOM"
edit "$T/classes.run" "$T/noclassesline.run" '/^classes /d'
refused "a version 18 archive without its classes line" "$T/noclassesline.run" "expected 'classes none'"
# Version 7's band trials: a range the workload found no faster split
# keeps whole in the rule derived, and summary.md lists each trial. The
# same archive with the trial kept splits inside it (the precondition that
# lets the check fail).
starts() { # the lengths where the bands of dry.out's table start, past the first
	sed -n 's/^table: [^:]*: //p' "$T/dry.out" | tr ';' '\n' | sed -n 's/^ *\([0-9][0-9]*\)\.\..*/\1/p' | grep -v '^0$'
}
edit "$known" "$T/split.run" 's/^trials 0$/trials 1\ntrial 0 240 10.00 10.00 12.00 12.00 kept/'
dry "$T/split.run"
starts >"$T/starts"
check "a trial whose split paid: the rule splits in 1..240" awk '$1 > 0 && $1 <= 240 { in_range = 1 } END { exit !in_range }' "$T/starts"
check "...and summary.md lists it" grep -q '^| 0\.\.240 | 10.00 | 10.00 | 12.00 | 12.00 | split kept |$' "$T/dry.out"
edit "$known" "$T/whole.run" 's/^trials 0$/trials 1\ntrial 0 240 10.00 10.00 10.00 10.00 merged/'
dry "$T/whole.run"
starts >"$T/starts"
check "a trial kept whole: no band starts in 1..240" awk '$1 > 0 && $1 <= 240 { in_range = 1 } END { exit in_range }' "$T/starts"
check "...its note names the range" grep -q 'No band edge inside 0\.\.240' "$T/dry.out"
check "...while the tables after each pass, derived before the trials as the probe derived them, split there" \
	awk -F'; ' '/^\| 1\.\.[0-9]+ \|/ { for (i = 2; i <= NF; i++) if ($i + 0 > 0 && $i + 0 <= 240) found = 1 } END { exit !found }' "$T/dry.out"
check "...and summary.md marks it" grep -q '^| 0\.\.240 | 10.00 | 10.00 | 10.00 | 10.00 | \*\*kept whole\*\* |$' "$T/dry.out"
check "...and says the workload decided (version 19)" grep -q 'A range stays whole where the split was not faster beyond the noise on random sizes (probe version 19' "$T/dry.out"
edit "$T/whole.run" "$T/whole18.run" '/^repairs* /d; s/^probe 25$/probe 18/'
dry "$T/whole18.run"
check "...a version 18 archive's, either stream" sh -c "grep -q 'was not faster beyond the noise on either stream' '$T/dry.out' &&
	! grep -q 'probe version 19' '$T/dry.out'"
edit "$known" "$T/badtrial.run" 's/^trials 0$/trials 1\ntrial 240 0 10.00 10.00 10.00 10.00 merged/'
refused "a trial whose range runs backwards" "$T/badtrial.run" "expected 'trial LO HI"
edit "$known" "$T/notrials.run" '/^trials /d'
refused "a version 7 archive without its trials line" "$T/notrials.run" "expected 'trials N'"

# Version 8's small trial: kept, the rule copies by small_flat wherever the
# table as derived copies by small; not kept, by small (which the table
# must have for the first check to fail).
rule() { sed -n 's/^table: [^:]*: //p' "$T/dry.out"; }
# small_flat's points given small's times (SCALE times them), so that no
# point of the grid decides, on this machine, whether it may be kept.
flat_as_small() { # flat_as_small IN OUT SCALE
	awk -v scale="$3" '
		$1 == "small" && NF > 4 { key = $2 " " $3 " " $4; times[key] = ""; for (i = 5; i <= NF; i++) times[key] = times[key] " " sprintf("%.2f", $i * scale) }
		$1 == "small_flat" && NF > 4 && ($2 " " $3 " " $4) in times { print "small_flat " $2 " " $3 " " $4 times[$2 " " $3 " " $4]; next }
		{ print }' "$1" >"$2" && sha_again "$2"
}
flat_as_small "$known" "$T/known_flat.run" 1
known=$T/known_flat.run
edit "$known" "$T/flat.run" 's/^small_trial .*/small_trial 10.00 9.00 12.00 8.00 11.00 kept/'
dry "$T/flat.run"
rule >"$T/flat.rule"
check "a small trial kept: the rule copies by small_flat" grep -qw small_flat "$T/flat.rule"
check "...and by small nowhere" sh -c "! grep -qw small '$T/flat.rule'"
check "...and summary.md says so" grep -q '^\*\*Kept\*\*: the rule copies by small_flat where the table as derived has small\.$' "$T/dry.out"
edit "$known" "$T/notflat.run" 's/^small_trial .*/small_trial 10.00 9.00 10.10 8.00 11.00 not/'
dry "$T/notflat.run"
rule >"$T/notflat.rule"
check "a small trial not kept: the rule copies by small" sh -c "grep -qw small '$T/notflat.rule' && ! grep -qw small_flat '$T/notflat.rule'"
check "...and summary.md says so" grep -q '^Not kept: the rule copies by small\.$' "$T/dry.out"
flat_as_small "$T/flat.run" "$T/harmflat.run" 10
refused "a small trial kept where small_flat loses to forward on the grid" "$T/harmflat.run" "the archive contradicts its own points"
edit "$known" "$T/badflat.run" 's/^small_trial .*/small_trial 10.00 kept/'
refused "a small trial line cut short" "$T/badflat.run" "expected 'small_trial none' or 'small_trial WITH_RANDOM"
edit "$known" "$T/v7.run" '/^repairs* /d; s/^probe 25$/probe 7/; /^small_trial /d; /^shaped /d; /^classes /d; /^grid_gate /d'
dry "$T/v7.run"
rule >"$T/v7.rule"
# A probe before the gate (version 12) never timed its table compiled on
# the grid: only cells too long for a tree's cost to change are kept.
check "a version 7 archive (no small trial, no gate) keeps only its long cells" sh -c \
	"grep -q 'This run.s probe timed no compiled tree' '$T/dry.out' && grep -Eq '^table: .*: 0\.\.[0-9]* forward' '$T/dry.out'"
check "...and no small copy" sh -c "! grep -qw small '$T/v7.rule'"
edit "$T/base.run" "$T/v8base.run" '/^repairs* /d; s/^probe 25$/probe 8/; /^shaped /d; /^classes /d; /^grid_gate /d'
dry "$T/v8base.run"
check "a version 8 archive that kept the baseline (no shaped trial) keeps it" grep -Eq '^table: .*: 0\.\. forward$' "$T/dry.out"

# Version 3 timed tables that alternate their copy through the table
# dispatch, a slope that measures the strategy mix too: a Zen 3's, where
# small is 2.7x faster than rep movsb, came out 0.00 ticks a band. Its runs
# take the default cost, and say why.
edit "$known" "$T/v3.run" '/^repairs* /d; s/^probe 25$/probe 3/; /^trials\{0,1\} /d; /^small_trial /d; /^shaped /d; /^classes /d; /^grid_gate /d'
dry "$T/v3.run"
check "a version 3 archive derives at the default cost, not its slope" grep -q 'charged 0.80 ticks a call, the default cost' "$T/dry.out"
check "...its summary saying why its timings are not used" grep -q 'timed the dispatch, but not as the derivation' "$T/dry.out"
edit "$known" "$T/v3flat.run" '/^repairs* /d; s/^probe 25$/probe 3/; /^trials\{0,1\} /d; /^small_trial /d; /^shaped /d; /^classes /d; /^grid_gate /d; s/^dispatch \([1248]\) .*/dispatch \1 20.00 20.00/'
dry "$T/v3flat.run"
check "...and a flat slope (the strategy mix) is charged the default, not 0" grep -q 'charged 0.80 ticks a call' "$T/dry.out"

# Version 2: the points alone, the default cost, said so.
as_version "$A" "$T/v2.run" 2
dry "$T/v2.run"
check "a version 2 archive derives" grep -q '^table: ' "$T/dry.out"
check "...with the default cost, and says so" grep -q 'the default cost of a band (this run.s probe did not measure it as the derivation uses it)' "$T/dry.out"
check "...and its summary says the probe did not measure it" grep -q 'did not measure what the dispatch costs' "$T/dry.out"

# Version 13: in the user flavor, memmove's overlap compares stand only
# before a copy that goes one way; version 12's stood before every copy.
# Version 14: a strategy timed at a length one of its pieces holds jumps
# to that piece.
"$FORGE" "$(ls "$T"/probe/*-user-*.run)" "$T/u.run" AuthenticAMD 00830f10 none "AMD EPYC 7502 32-Core Processor"
dry "$T/u.run"
check "a version 14 user archive's method says which copies take memmove's overlap compares" grep -q \
	'memmove and the strategy goes up or down, none before one that loads everything before it stores' "$T/dry.out"
check "...and that a piece's lengths jump to the piece" grep -q \
	"or, at a length one of its pieces holds (plan/pieces.h), to that piece, past the body's own compares" "$T/dry.out"
as_version "$T/u.run" "$T/u13.run" 13
dry "$T/u13.run"
check "...a version 13 one's, that each jumped to its routine" sh -c \
	"grep -q \"stores, then a jump to the strategy's routine), so\" '$T/dry.out' && ! grep -q 'its pieces holds' '$T/dry.out'"
as_version "$T/u.run" "$T/u12.run" 12
dry "$T/u12.run"
check "...a version 12 one's, that every copy took them" grep -q "where the flavor's entry is memmove, then a jump" "$T/dry.out"

# Broken dispatch lines: refused, naming the line.
edit "$A25" "$T/nochoice.run" '/^chosen /d'
refused "no chosen line" "$T/nochoice.run" "expected 'chosen baseline' or 'chosen M'"
edit "$A25" "$T/badchoice.run" 's/^chosen .*/chosen 3/'
refused "a choice no candidate has" "$T/badchoice.run" "expected 'chosen baseline' or 'chosen M'"
edit "$A" "$T/negative.run" 's/^dispatch 4 .*/dispatch 4 -1.00 3.00/'
refused "a negative time" "$T/negative.run" "expected 'dispatch 4 RANDOM SORTED' (ticks per call, positive)"
edit "$A" "$T/order.run" 's/^dispatch 2 /dispatch 3 /'
refused "a table out of order" "$T/order.run" "expected 'dispatch 2 RANDOM SORTED'"
edit "$A" "$T/nodispatch.run" '/^\(dispatch\|search\|check\|grid_gate\|repairs\|repair\) /d'
refused "an archive without its dispatch lines" "$T/nodispatch.run" "expected 'dispatch 1 RANDOM SORTED'"
summary
