#!/bin/sh
# Real CPUID values (tests/fixtures/cpuid/leaves.tsv, each with where it was
# recorded) resolve to the entry the fixture names, both in the generator's
# lookup (uarchgen lookup, gen/model/resolve.c) and in every flavor's
# generated C table (uc_rule_from_cpuid on the raw words), so the lookup tests
# do not rest only on signatures the test generator makes up. A negative
# control feeds a fixture with a wrong expected entry. tests/decode_cpuid.c
# checks that the import (derive/cpuid.c) decodes every signature as each
# flavor's lookup does.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=$ROOT/gen/uarchgen
. "$ROOT/tests/lib.sh"
FIXTURES=tests/fixtures/cpuid/leaves.tsv

for f in $("$GEN" flavors | cut -d' ' -f1); do
	cc -std=c11 -no-pie -Iout/"$f" tests/lookup_cpuid.c build/"$f"/copy_rule.o build/"$f"/copy.o -o "$T/lookup-$f" ||
		{ bad "$f: lookup_cpuid does not build"; continue; }
	# The import decodes a signature as this flavor's lookup does.
	if cc -std=c11 -no-pie -Iout/"$f" tests/decode_cpuid.c derive/cpuid.c common/text.c build/"$f"/copy_rule.o \
		build/"$f"/copy.o -o "$T/decode-$f"; then
		check "$f: the import and the lookup decode every signature alike" "$T/decode-$f"
	else
		bad "$f: decode_cpuid does not build"
	fi
done

# check_rows FILE: every row's entry from both lookups must be the fixture's.
check_rows() {
	grep -v '^#' "$1" | while IFS="$(printf '\t')" read -r vendor eax part entry citation; do
		base_family=$(((eax >> 8) & 0xf))
		family=$base_family
		[ $base_family -eq 15 ] && family=$((family + ((eax >> 20) & 0xff)))
		model=$(((eax >> 4) & 0xf))
		[ $base_family -ge 6 ] && model=$((model + (((eax >> 16) & 0xf) << 4)))
		for f in $("$GEN" flavors | cut -d' ' -f1); do
			gen_entry=$("$GEN" lookup "$vendor" "$family" "$model" --flavor "$f" | tr ' ' '\n' | sed -n 's/^entry=//p')
			c_entry=$("$T/lookup-$f" "$vendor" "$eax")
			if [ "$gen_entry" = "$entry" ] && [ "$c_entry" = "$entry" ]; then
				echo "ok $part"
			else
				echo "FAIL $part ($vendor $eax, $citation): fixture says $entry, uarchgen lookup $gen_entry, $f table $c_entry"
			fi
		done
	done
}

check_rows "$FIXTURES" >"$T/rows"
grep '^FAIL' "$T/rows"
n_ok=$(grep -c '^ok' "$T/rows")
n_fail=$(grep -c '^FAIL' "$T/rows")
pass=$((pass + n_ok))
fail=$((fail + n_fail))
[ "$n_ok" -ge 10 ] && ok || bad "fewer than 10 fixture rows were checked ($n_ok)"

# Negative control: the same check must fail on a fixture that names the wrong entry.
sed 's/\tzen2\t/\tzen3\t/' "$FIXTURES" >"$T/wrong.tsv"
if check_rows "$T/wrong.tsv" | grep -q '^FAIL'; then ok; else bad "a fixture with a wrong entry went unnoticed"; fi
summary
