#!/bin/sh
# The portable probe as a user runs it on a machine without the toolchain:
# one static binary that needs no database and no files, writes a whole run
# archive or none, and never replaces one that is there.
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
mkdir "$T/empty"
(cd "$T/empty" && env -i "$PROBE" --quick >"$T/empty.out" 2>&1)
rc=$?
check "it runs from an empty directory with no environment" test $rc -eq 0
archive=$(ls "$T/empty")
check "...and writes one archive, named by CPUID, date and checksum" sh -c \
	"echo '$archive' | grep -Eq '^probe-[0-9a-f]{2}h-[0-9a-f]{2}h-20[0-9]{2}-[0-9]{2}-[0-9]{2}-[0-9a-f]{6}\\.run\$'"
A=$T/empty/$archive
check "the archive starts with its format" sh -c "head -1 '$A' | grep -qx 'uarchcopy-run-archive 1'"
check "...holds the raw CPUID leaves 0 and 1" sh -c "grep -q '^cpuid 00000000 00000000 ' '$A' && grep -q '^cpuid 00000001 00000000 ' '$A'"
for key in probe date kernel microcode platform hypervisor flavor samples passes overhead points; do
	check "...holds its $key line" grep -q "^$key " "$A"
done
check "...ends with the sha256 of every line before" sh -c \
	"test \"\$(sed '\$d' '$A' | sha256sum | cut -d' ' -f1)\" = \"\$(tail -1 '$A' | sed -n 's/^sha256 //p')\""
points=$(sed -n 's/^points //p' "$A")
check "...with as many point lines as its count says" test \
	"$(grep -cE '^(forward|forward_aligned|down|small) ' "$A")" -eq "$points"
# (--name only where no entry holds this CPU.)
check "...and the import reads it" sh -c \
	"'$GEN' import --dry-run '$A' >/dev/null 2>&1 || '$GEN' import --dry-run --name probe_test_core '$A'"

# An archive that is there is never replaced.
cp "$A" "$T/kept.run"
check "an existing --out is refused" sh -c "! '$PROBE' --quick --out '$A' >/dev/null 2>&1"
check "...and left as it was" cmp "$A" "$T/kept.run"
check "...with no temporary file beside it" test "$(ls -A "$T/empty")" = "$archive"
check "an unwritable --out is named" sh -c "'$PROBE' --quick --out /nonexistent/x.run 2>&1 | grep -q '/nonexistent/x.run: No such file'"

# Interrupted while measuring (the full plan takes minutes): no archive, no
# temporary file.
for sig in INT TERM KILL; do
	mkdir "$T/int-$sig"
	(cd "$T/int-$sig" && exec "$PROBE" --out run.run) >"$T/int.out" 2>&1 &
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
