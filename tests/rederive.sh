#!/bin/sh
# uarchgen rederive: a recorded run derived again from its archive. In a
# copy of the database and its evidence, a forged Zen 2 run is imported;
# then its rule is spoiled as an old derivation might have left it (other
# bands, another method) and its summary with it. rederive of that run
# puts back exactly what the import recorded: the bands, the method that
# names the current derivation, every file of the evidence folder (whose
# drawing names the strategies the table chose, no other). --dry-run
# writes nothing; an archive that is not the one recorded, or a run with
# no archive, is refused with nothing changed.
# usage: tests/rederive.sh   (needs build/uarchcopy-probe; takes a minute)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROBE=$ROOT/build/uarchcopy-probe
GEN=$ROOT/gen/uarchgen
. "$ROOT/tests/lib.sh"

D=$T/db
mkdir -p "$D/evidence" && cp uarch.db "$D/uarch.db" && cp -r evidence/*/ "$D/evidence/"
mkdir "$T/probe" && "$PROBE" --quick --flavor kernel --out "$T/probe" >/dev/null 2>&1
tests/forge_archive.sh "$T"/probe/*.run "$T/zen2.run" AuthenticAMD 00830f10 none "AMD EPYC 7502 32-Core Processor"
check "the forged run imports" sh -c "'$GEN' import --db '$D/uarch.db' '$T/zen2.run' >'$T/import.out'"
sha=$(tail -1 "$T/zen2.run" | sed 's/^sha256 //')
run=$(sqlite3 "$D/uarch.db" "SELECT id FROM run WHERE archive_sha256 = '$sha'")
state() { # the zen2 kernel rule and its bands, and the run's evidence files
	sqlite3 "$D/uarch.db" "SELECT * FROM rule WHERE uarch = 'zen2' AND flavor = 'kernel';
		SELECT * FROM rule_band WHERE uarch = 'zen2' AND flavor = 'kernel' ORDER BY length_lo"
	for f in run.archive choice.csv summary.md plot.gp; do sha256sum <"$D/evidence/$run/$f"; done
}
state >"$T/imported"
# The drawing's key: the strategies choice.csv holds, each once, no other.
held=$(tail -n +2 "$D/evidence/$run/choice.csv" | cut -d, -f3 | sort -u | tr '\n' ' ')
keyed=$(grep "^plot 'choice.csv' every ::1 using 1:(" "$D/evidence/$run/plot.gp" | grep -o "title '[a-z0-9_]*'" |
	sed "s/title '\(.*\)'/\1/" | sort | tr '\n' ' ')
check "its drawing's key names the strategies its table chose ($held), no other" test "$held" = "$keyed"
check "its rule names the derivation that made it" \
	sh -c "sqlite3 '$D/uarch.db' \"SELECT method FROM rule WHERE uarch = 'zen2' AND flavor = 'kernel'\" | grep -q '^probe version [0-9]*, derivation [0-9]*:'"

# An old derivation's leftovers.
sqlite3 "$D/uarch.db" "UPDATE rule SET method = 'probe version 4, derivation 1: older' WHERE uarch = 'zen2' AND flavor = 'kernel';
	DELETE FROM rule_band WHERE uarch = 'zen2' AND flavor = 'kernel';
	INSERT INTO rule_band VALUES ('zen2', 'kernel', 0, NULL, 'forward', 'forward', 'forward', 'forward', 'forward')"
echo "an older summary" >"$D/evidence/$run/summary.md"
state >"$T/spoiled"
check "the spoiled rule differs" sh -c "! cmp -s '$T/imported' '$T/spoiled'"

cp "$D/uarch.db" "$T/before.db"
check "rederive --dry-run derives the run" sh -c "'$GEN' rederive --dry-run --db '$D/uarch.db' '$run' >'$T/dry.out' 2>&1 &&
	grep -q '^$run (its rule.s evidence): ' '$T/dry.out'"
state >"$T/after-dry"
check "...and writes nothing" sh -c "cmp '$D/uarch.db' '$T/before.db' && cmp '$T/after-dry' '$T/spoiled'"

check "rederive RUN succeeds" sh -c "'$GEN' rederive --db '$D/uarch.db' '$run' >'$T/again.out' 2>&1"
state >"$T/again"
check "...and puts back the rule, its bands and its evidence as the import made them" cmp "$T/imported" "$T/again"
check "...leaving no hidden folder" sh -c "! ls -A '$D/evidence' | grep -q '^[.]'"
check "...and the generator takes the database" "$GEN" query --db "$D/uarch.db"

# Refusals: nothing changes.
cp "$D/uarch.db" "$T/before.db"
state >"$T/before"
cp "$D/evidence/$run/run.archive" "$T/kept.run"
# Another whole archive in its place: its microcode line changed, the
# checksum made again.
sed 's/^microcode .*/microcode 0x7/' "$T/kept.run" >"$D/evidence/$run/run.archive"
sha_again "$D/evidence/$run/run.archive"
"$GEN" rederive --db "$D/uarch.db" "$run" >"$T/altered.out" 2>&1
check "another archive in the run's folder is refused" test $? -eq 1
check "...naming it" grep -q "not the archive run $run recorded" "$T/altered.out"
cp "$T/kept.run" "$D/evidence/$run/run.archive"
state >"$T/after-refusal"
check "...with nothing changed" sh -c "cmp '$D/uarch.db' '$T/before.db' && cmp '$T/after-refusal' '$T/before'"
check "...and no hidden folder left" sh -c "! ls -A '$D/evidence' | grep -q '^[.]'"
"$GEN" rederive --db "$D/uarch.db" no-such-run >"$T/none.out" 2>&1
check "a run that does not exist is refused" sh -c "test $? -eq 1 && grep -q 'no run no-such-run with an archive' '$T/none.out'"
summary
