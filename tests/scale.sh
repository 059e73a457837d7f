#!/bin/sh
# The generator's cost grows linearly with the database: gen and check on
# copies of uarch.db grown by 500 and by 2,000 entries (each with a CPUID
# range, so each adds a lookup group to the generated tests). It prints both
# times and their ratio, and fails when the ratio shows quadratic growth or
# worse (2,000 / 500 entries: about 4 for linear, 16 for quadratic): a ratio
# holds on a slow or busy machine, where a time limit would not.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=$ROOT/gen/uarchgen
. "$ROOT/tests/lib.sh"
ln -s "$ROOT/evidence" "$T/evidence"
grow() { # grow N: T/N.db, uarch.db with N more entries
	cp "$ROOT/uarch.db" "$T/$1.db"
	sqlite3 "$T/$1.db" "
		WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < $1 - 1)
		INSERT INTO uarch SELECT printf('x%05d', i), CASE WHEN i % 2 THEN 'AuthenticAMD' ELSE 'GenuineIntel' END,
			'part ' || i, NULL FROM c;
		WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < $1 - 1)
		INSERT INTO cpuid_range SELECT printf('x%05d', i), 100 + i / 200, i % 200, i % 200,
			'generated for the scale test' FROM c;"
}
seconds() { # seconds CMD...: wall time of CMD, in seconds
	start=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || { echo "FAILED: $*" >&2; : >"$T/failed"; }
	awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }'
}
for n in 500 2000; do
	grow $n
	gen=$(seconds "$GEN" gen -q --db "$T/$n.db" --out "$T/out$n")
	chk=$(seconds "$GEN" check --db "$T/$n.db" --out "$T/out$n")
	eval "gen$n=$gen chk$n=$chk"
	echo "$n more entries: gen ${gen}s, check ${chk}s"
done
ratio=$(awk "BEGIN { printf \"%.2f\", ($gen2000 + $chk2000) / ($gen500 + $chk500) }")
echo "growth from 500 to 2000 entries: ${ratio}x"
check "gen and check succeed on the grown databases" test ! -e "$T/failed"
check "the cost grows less than quadratically (${ratio}x for 4x the entries)" \
	awk "BEGIN { exit !($ratio < 8) }"
summary
