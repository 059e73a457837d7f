#!/bin/sh
# The output directory is one run's output, whole, whatever happens to the
# run: killed at random moments (SIGKILL, SIGINT), run twice at once on two
# databases, a file of it replaced by a directory. Runs that change nothing
# write nothing, and hidden siblings that killed runs left are removed by the
# next run.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=$ROOT/gen/uarchgen
. "$ROOT/tests/lib.sh"
ln -s "$ROOT/evidence" "$T/evidence"
cp "$ROOT/uarch.db" "$T/a.db"
cp "$ROOT/uarch.db" "$T/b.db"
# b differs from a in one rule, so that every run between them rewrites files.
sqlite3 "$T/b.db" "UPDATE rule SET above_max = above_max - 1 WHERE uarch = 'zen2'"
"$GEN" gen -q --db "$T/a.db" --out "$T/ref_a" && "$GEN" gen -q --db "$T/b.db" --out "$T/ref_b" || exit 2
O=$T/work/out
"$GEN" gen -q --db "$T/a.db" --out "$O" || exit 2

whole() { # the directory is exactly ref_a or exactly ref_b
	diff -r "$O" "$T/ref_a" >/dev/null 2>&1 || diff -r "$O" "$T/ref_b" >/dev/null 2>&1
}
mixed=0 runs=0
for delay in 0.01 0.03 0.05 0.07 0.09 0.11 0.13 0.15 0.17 0.19 0.21 0.23 0.25 0.27 0.29 0.31 0.33 0.35; do
	for sig in KILL INT; do
		db=$T/a.db
		[ $((runs % 2)) -eq 1 ] && db=$T/b.db
		"$GEN" gen -q --db "$db" --out "$O" >/dev/null 2>&1 &
		pid=$!
		sleep "$delay"
		kill -s "$sig" "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		runs=$((runs + 1))
		whole || mixed=$((mixed + 1))
	done
done
check "killed $runs times at random moments, the directory was never mixed" test "$mixed" -eq 0
check "...and its MANIFEST verifies" sh -c "cd '$O' && sha256sum --quiet -c MANIFEST"
"$GEN" gen -q --db "$T/a.db" --out "$O"
check "the next run removes what killed runs left beside it" sh -c "! ls -a '$T/work' | grep -q '^\.out\.new-'"

before=$(stat -c %i "$O")
"$GEN" gen -q --db "$T/a.db" --out "$O"
check "a run with nothing to change writes nothing" test "$(stat -c %i "$O")" = "$before"

"$GEN" gen -q --db "$T/a.db" --out "$O" & p1=$!
"$GEN" gen -q --db "$T/b.db" --out "$O" & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
check "two runs at once both succeed" test $r1 -eq 0 -a $r2 -eq 0
check "...and leave one run's output" whole

rm "$O/kernel/copy_rule.h" && mkdir "$O/kernel/copy_rule.h"
check "a file replaced by a directory is put back" "$GEN" gen -q --db "$T/a.db" --out "$O"
check "...whole" diff -r "$O" "$T/ref_a"
# A file system that cannot exchange two names: a shim makes renameat2 fail
# as such a one does, and the run falls back to two renames.
cat >"$T/shim.c" <<'CEOF'
#include <errno.h>
int renameat2(int a, const char *b, int c, const char *d, unsigned int e)
{
	(void)a, (void)b, (void)c, (void)d, (void)e;
	errno = EINVAL;
	return -1;
}
CEOF
cc -shared -fPIC "$T/shim.c" -o "$T/shim.so"
check "without RENAME_EXCHANGE the run still replaces the directory" sh -c \
	"LD_PRELOAD='$T/shim.so' '$GEN' gen -q --db '$T/b.db' --out '$O' && diff -r '$O' '$T/ref_b' >/dev/null"
check "...and leaves nothing beside it" sh -c "! ls -a '$T/work' | grep -q '^\.out\.\(new\|old\)-'"
"$GEN" gen -q --db "$T/a.db" --out "$O"
touch "$O/kernel/notes.txt"
check "a file no run wrote stops the run" sh -c "! '$GEN' gen -q --db '$T/b.db' --out '$O' 2>/dev/null"
check "...and nothing was written" sh -c "rm '$O/kernel/notes.txt' && diff -r '$O' '$T/ref_a'"
summary
