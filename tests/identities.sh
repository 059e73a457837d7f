#!/bin/sh
# The tests whose answer depends on which core runs them, run as other
# cores: each identity is a CPU model of qemu-x86_64 (user-mode emulation:
# the program runs here and CPUID answers as that model). Under each:
# - the portable probe measures (--quick) and its archives say that CPU;
# - the import files each run under the entry the identity names, or
#   refuses a core no entry holds until --name names one, and the database
#   generates with the rule measured;
# - uarchgen lookup and the generated rule table (uc_rule_init, reading
#   CPUID) give the same entry and table, before and after the import;
# - the dispatch takes the table's strategy at every band and class edge,
#   and the generated tests pass.
# A negative control runs one identity with the wrong expected entry.
# usage: tests/identities.sh   (after make check has built build/)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=$ROOT/gen/uarchgen
PROBE=$ROOT/build/uarchcopy-probe
. "$ROOT/tests/lib.sh"
QEMU=${QEMU_USER:-qemu-x86_64}
command -v "$QEMU" >/dev/null || { echo "identities: $QEMU is missing (make deps installs qemu-user)" >&2; exit 2; }

# model|vendor|family|model|entry ("-": no entry holds it). Rocket Lake is
# QEMU's Skylake with Rocket Lake's model number: an Intel core with a
# measured kernel rule. QEMU's TCG drops the features it cannot run (the
# warnings go to the log), AVX2 included where it lacks it.
IDENTITIES="EPYC-Rome|AuthenticAMD|23|49|zen2
Skylake-Client|GenuineIntel|6|94|skylake
Skylake-Client,model=167|GenuineIntel|6|167|rocketlake
Opteron_G5|AuthenticAMD|21|2|-"
FLAVORS=$("$GEN" flavors | cut -d' ' -f1)

for f in $FLAVORS; do
	cc -std=c11 -D_GNU_SOURCE -no-pie -Iout/"$f" tests/identity_rule.c common/text_poke.c build/"$f"/copy_rule.o build/"$f"/copy.o \
		-o "$T/rule-$f" || { bad "$f: identity_rule does not build"; continue; }
done

fresh() { # fresh DIR: a copy of the database, its evidence hard links (the import writes only a new run's folder)
	rm -rf "$1" && mkdir -p "$1/evidence" && cp uarch.db "$1/uarch.db" && cp -rl evidence/. "$1/evidence/"
}

# rule_matches CPU DB FLAVOR VENDOR FAMILY MODEL RULE_PROGRAM: the rule the
# table picks under CPU is the one uarchgen lookup gives from DB; the
# dispatch follows it.
rule_matches() {
	"$QEMU" -cpu "$1" "$7" >"$T/rule.out" 2>"$T/rule.err"
	rc=$?
	want=$("$GEN" lookup --db "$2" "$4" "$5" "$6" --flavor "$3" | sed 's/^flavor=[a-z0-9_]* //')
	got=$(head -1 "$T/rule.out")
	if [ "$got" != "$want" ]; then
		echo "the table picks:  $got"
		echo "uarchgen lookup:  $want"
		return 1
	fi
	[ $rc -eq 0 ] || { grep '^FAIL' "$T/rule.out"; tail -1 "$T/rule.out"; return 1; }
}

run_identity() { # run_identity CPU VENDOR FAMILY MODEL ENTRY
	cpu=$1 vendor=$2 family=$3 model=$4 entry=$5
	who="as $cpu"
	d=$T/$(echo "$cpu" | tr -c 'A-Za-z0-9\n' '_')
	rm -rf "$d" && mkdir -p "$d/probe"
	"$QEMU" -cpu "$cpu" "$PROBE" --quick --out "$d/probe" >"$d/probe.log" 2>&1
	check "$who: the probe writes an archive per flavor" test "$(ls "$d/probe" | wc -l)" -eq "$(echo "$FLAVORS" | wc -l)"
	check "$who: ...named by the emulated CPU's family and model" sh -c \
		"ls '$d/probe' | grep -q '^probe-$(printf '%02xh-%02xh' "$family" "$model")-'"
	for f in $FLAVORS; do
		check "$who, $f: uarchgen lookup names $entry" sh -c \
			"'$GEN' lookup '$vendor' $family $model --flavor $f | grep -q ' entry=$entry '"
		check "$who, $f: the rule table picks what uarchgen lookup gives, and the dispatch follows it" \
			rule_matches "$cpu" uarch.db "$f" "$vendor" "$family" "$model" "$T/rule-$f"
		check "$who, $f: the generated tests pass" "$QEMU" -cpu "$cpu" "build/$f/run_rule_tests"
	done
	fresh "$d/db"
	if [ "$entry" = - ]; then
		"$GEN" import --db "$d/db/uarch.db" "$d"/probe/*.run >"$d/import.out" 2>&1
		check "$who: the import refuses a core no entry holds" sh -c \
			"test $? -eq 2 && grep -q 'name a new one with --name' '$d/import.out' && cmp -s uarch.db '$d/db/uarch.db'"
		entry=probe_identity
		check "$who: ...and --name records it" "$GEN" import --db "$d/db/uarch.db" --name $entry "$d"/probe/*.run
	else
		check "$who: the import records both flavors' runs" "$GEN" import --db "$d/db/uarch.db" "$d"/probe/*.run
	fi
	for f in $FLAVORS; do
		check "$who, $f: the run measures $entry" sh -c \
			"'$GEN' lookup --db '$d/db/uarch.db' '$vendor' $family $model --flavor $f | grep -q ' entry=$entry status=measured '"
	done
	check "$who: the database generates" "$GEN" gen -q --db "$d/db/uarch.db" --out "$d/out"
	# The new rule, compiled, as this CPU would pick it.
	for f in $FLAVORS; do
		if nasm -f elf64 "$d/out/$f/x86_64/copy.asm" -o "$d/copy-$f.o" &&
			cc -std=c11 -c "$d/out/$f/copy_rule.c" -o "$d/rule-$f.o" &&
			cc -std=c11 -D_GNU_SOURCE -no-pie -I"$d/out/$f" tests/identity_rule.c common/text_poke.c "$d/rule-$f.o" "$d/copy-$f.o" \
				-o "$d/rule-$f"; then
			check "$who, $f: the new table picks the measured rule, and the dispatch follows it" \
				rule_matches "$cpu" "$d/db/uarch.db" "$f" "$vendor" "$family" "$model" "$d/rule-$f"
		else
			bad "$who, $f: the generated code does not build"
		fi
	done
}

echo "$IDENTITIES" | while IFS='|' read -r cpu vendor family model entry; do
	run_identity "$cpu" "$vendor" "$family" "$model" "$entry"
	echo "$pass $fail" >"$T/counts"
done
read -r pass fail <"$T/counts"

# Negative control: an identity said to be another core fails.
kept_pass=$pass kept_fail=$fail
run_identity EPYC-Rome AuthenticAMD 23 49 zen3 >/dev/null
failed_control=$((fail - kept_fail))
pass=$kept_pass fail=$kept_fail
if [ $failed_control -gt 0 ]; then ok; else bad "EPYC-Rome taken for zen3 went unnoticed"; fi
summary
