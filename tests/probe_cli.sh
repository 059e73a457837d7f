#!/bin/sh
# The portable probe as a user runs it on a machine without the toolchain:
# one static binary that carries every flavor, needs no database and no
# files, and writes a whole run archive per flavor, or none.
# Timings here use --quick: these tests check what is written, not its values.
# usage: tests/probe_cli.sh   (build/uarchcopy-probe, from make probe-portable)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROBE=$ROOT/build/uarchcopy-probe
GEN=$ROOT/gen/uarchgen
. "$ROOT/tests/lib.sh"

check "probe --help" sh -c "'$PROBE' --help | grep -q '^usage: probe'"
check "an unknown option exits 2" sh -c "'$PROBE' --frobnicate 2>/dev/null; test \$? -eq 2"
check "ldd: not a dynamic executable" sh -c "ldd '$PROBE' 2>&1 | grep -q 'not a dynamic executable'"
check "...no interpreter, no dynamic section" sh -c "! readelf -lW '$PROBE' | grep -q -e INTERP -e DYNAMIC"

# From an empty directory, with an empty environment: nothing to read.
flavors=$("$GEN" flavors | cut -d' ' -f1)
mkdir "$T/empty"
(cd "$T/empty" && env -i "$PROBE" --quick >"$T/empty.out" 2>&1)
rc=$?
check "it runs from an empty directory with no environment" test $rc -eq 0
check "...and writes one archive per flavor it carries" test "$(ls "$T/empty" | wc -l)" -eq "$(echo "$flavors" | wc -l)"
for f in $flavors; do
	archive=$(cd "$T/empty" && ls | grep -E "^probe-[0-9a-f]{2}h-[0-9a-f]{2}h-20[0-9]{2}-[0-9]{2}-[0-9]{2}-$f-[0-9a-f]{6}\.run\$")
	check "flavor $f's archive is named by CPUID, date, flavor and checksum" test -n "$archive"
	A=$T/empty/$archive
	[ -f "$A" ] || continue
	check "...it starts with its format" sh -c "head -1 '$A' | grep -qx 'uarchcopy-run-archive 1'"
	check "...holds the raw CPUID leaves 0 and 1" sh -c "grep -q '^cpuid 00000000 00000000 ' '$A' && grep -q '^cpuid 00000001 00000000 ' '$A'"
	for key in probe date kernel microcode platform hypervisor samples passes overhead points; do
		check "...holds its $key line" grep -q "^$key " "$A"
	done
	check "...says its flavor" grep -qx "flavor $f" "$A"
	check "...ends with the sha256 of every line before" sh -c \
		"test \"\$(sed '\$d' '$A' | sha256sum | cut -d' ' -f1)\" = \"\$(tail -1 '$A' | sed -n 's/^sha256 //p')\""
	check "...with as many point lines as its count says" test \
		"$(sed -n '/^points /,/^sha256 /p' "$A" | sed '1d;$d' | grep -vc '^\(dispatch\|search\|check\|grid_gate\|repairs\|repair\|overlaps\|overlap\) ')" \
		-eq "$(sed -n 's/^points //p' "$A")"
	check "...then the dispatch's timings" test "$(grep -c '^dispatch ' "$A")" -eq 4
	# A check's rank is 1..SEARCH_TABLES (derive/dispatch.h): the fits at
	# the size profile's weights and at 4, 1 and 0 times the band cost,
	# and the first's stall classes.
	check "...then the search's checks, as many as their count says, the kept one's small_flat table last" sh -c \
		"test \$(grep -c '^check ' '$A') -eq \$(sed -n 's/^search //p' '$A') &&
		 ! grep '^check ' '$A' | grep -Evq '^check [1-5] (plain|flat) [0-9]+( [0-9]+\\.[0-9]{2}){4} (lost|passed|kept)\$' &&
		 ! grep '^check ' '$A' | sed '\$d' | grep -q ' flat '"
	# The gate's line and its repairs come last but for the overlapping
	# points: counted back from the checksum.
	grep -v '^overlaps* ' "$A" >"$A.gate"
	grep -v '^repairs* ' "$A.gate" >"$A.trials"
	check "...then its grid gate, run where a table was kept" sh -c \
		"tail -2 '$A.trials' | head -1 | grep -Eqx 'grid_gate (none|[0-9.]+ [0-9]+ [0-9]+ (passed|refused))' &&
		 { grep -qx 'grid_gate none' '$A' || grep -q '^check .* kept\$' '$A'; } &&
		 { ! grep -qx 'grid_gate none' '$A' || ! grep -q '^check .* kept\$' '$A'; }"
	check "...then the gate's repairs, last, as many as their count says, only where it timed a table" sh -c \
		"tail -\$((2 + \$(sed -n 's/^repairs //p' '$A'))) '$A.gate' | head -1 | grep -Eqx 'repairs [0-9]+' &&
		 test \$(grep -c '^repair ' '$A') -eq \$(sed -n 's/^repairs //p' '$A') &&
		 { grep -qx 'repairs 0' '$A' || ! grep -qx 'grid_gate none' '$A'; }"
	check "...then memmove's copies where the ranges overlap, last, as many as their count says, none without a memmove" sh -c \
		"tail -\$((2 + \$(sed -n 's/^overlaps \([0-9]*\) [0-9]*\$/\1/p' '$A'))) '$A' | head -1 | grep -Eqx 'overlaps [0-9]+ [0-9]+' &&
		 test \$(grep -c '^overlap ' '$A') -eq \$(sed -n 's/^overlaps \([0-9]*\) [0-9]*\$/\1/p' '$A') &&
		 { test $f = user || grep -qx 'overlaps 0 [0-9]*' '$A'; } && { test $f != user || ! grep -qx 'overlaps 0 [0-9]*' '$A'; }"
	rm -f "$A.trials" "$A.gate"
	# (--name only where no entry holds this CPU.)
	check "...and the import reads it" sh -c \
		"'$GEN' import --dry-run '$A' >/dev/null 2>&1 || '$GEN' import --dry-run --name probe_test_core '$A'"
done
check "--flavor measures one" sh -c "mkdir '$T/one' && '$PROBE' --quick --flavor kernel --out '$T/one' >/dev/null 2>&1 &&
	test \"\$(ls '$T/one')\" = \"\$(ls '$T/one' | grep -- '-kernel-')\" && test -n \"\$(ls '$T/one')\""
check "an unknown --flavor exits 2 and names those it carries" sh -c \
	"'$PROBE' --quick --flavor sideways 2>'$T/err'; test \$? -eq 2 && grep -q 'no such flavor (kernel' '$T/err'"
# Named before any measuring: exit 2 and no line of a pass.
check "a missing --out is named before measuring, exit 2, and nothing is written" sh -c \
	"'$PROBE' --quick --out /nonexistent >'$T/out.txt' 2>&1; test \$? -eq 2 &&
	grep -q '^probe: --out /nonexistent: No such file or directory; nothing was written' '$T/out.txt' &&
	! grep -q 'pass 1' '$T/out.txt'"
# A directory root cannot write to needs a read-only mount; a file where
# the directory should be fails the same way for every user.
: >"$T/a-file"
check "an --out that is a file is named, and nothing is written" sh -c \
	"'$PROBE' --quick --out '$T/a-file' 2>&1 | grep -q '^probe: --out $T/a-file: Not a directory; nothing was written' &&
	test ! -s '$T/a-file'"

# Interrupted while measuring (the full plan takes minutes): no archive, no
# temporary file.
for sig in INT TERM KILL; do
	mkdir "$T/int-$sig"
	(cd "$T/int-$sig" && exec "$PROBE") >"$T/int.out" 2>&1 &
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
	check "SIG$sig leaves no archive and no temporary file" test -z "$(ls -A "$T/int-$sig")"
done

summary
