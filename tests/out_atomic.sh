#!/bin/sh
# The output directory is one run's output, whole, whatever happens to the
# run: killed at random moments (SIGKILL, SIGINT), run twice at once on two
# databases, a file of it replaced by a directory, a folder of it that
# cannot be written. Runs that change nothing write nothing; hidden siblings
# that killed runs left are removed by the next run, and one that cannot be
# is an error that names it.
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

# ---- a directory the run cannot write ----
# Each refusal exits 1 naming the folder the user knows, writes nothing and
# leaves no hidden tree. Permission bits do not stop root: as root the runs
# are another user's (setpriv), in a copy of what gen reads owned by it.
S=$T/ro
mkdir -p "$S/work" && cp "$GEN" "$S/uarchgen" && cp -r templates "$S/templates" && cp "$T/a.db" "$T/b.db" "$S/"
cp -rl evidence "$S/evidence" 2>/dev/null || cp -r evidence "$S/evidence"
as_user=
if [ "$(id -u)" -eq 0 ]; then
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	chown -R 65534:65534 "$S" && chmod 711 "$T"
fi
if [ -n "$as_user" ] && ! $as_user true 2>/dev/null; then
	echo "note: the unwritable-directory cases need setpriv to run as another user than root; skipped"
else
	run_as() { # run_as DB [OUT]: gen into $S/work/OUT (out) as the user, its stderr in $T/ro.err
		(cd "$S/work" && $as_user ../uarchgen gen -q --db "../$1" --templates ../templates --out "${2:-out}") 2>"$T/ro.err"
	}
	hidden() { ls -a "$S/work" | grep '^\.out\.'; }
	refused() { # refused NAME WANT: exit 1, WANT in the message, out/ as it was, nothing hidden
		run_as b.db
		rc=$?
		if [ $rc -ne 1 ]; then bad "$1: exit $rc, want 1"
		elif ! grep -qF -- "$2" "$T/ro.err"; then bad "$1: no '$2' in: $(cat "$T/ro.err")"
		elif ! diff -r "$S/work/out" "$S/ref_a" >/dev/null; then bad "$1: out/ changed"
		elif hidden >/dev/null; then bad "$1: left $(hidden)"
		else ok; fi
	}
	run_as a.db ../ref_a && run_as b.db ../ref_b && run_as a.db || bad "the first runs as the user: $(cat "$T/ro.err")"
	chmod a-w "$S/work/out/kernel/x86_64"
	refused "a read-only out/kernel/x86_64" "out: cannot be replaced: out/kernel/x86_64 is not writable (Permission denied)"
	refused "...and so again on the next run" "out/kernel/x86_64 is not writable"
	check "...though a run with nothing to change passes" run_as a.db
	chmod u+w "$S/work/out/kernel/x86_64" && chmod a-w "$S/work/out"
	refused "a read-only out/" "out: cannot be replaced: out is not writable (Permission denied)"
	check "...naming no hidden folder" sh -c "! grep -q '\.out\.' '$T/ro.err'"
	chmod u+w "$S/work/out" && chmod a-w "$S/work"
	refused "a read-only folder that holds out/" "out: cannot write its new tree into ., the directory that holds it"
	chmod u+w "$S/work"
	# A tree that a killed run left (pid 999999999 is no process), with a
	# read-only folder in it: named, with how to remove it.
	stale=.out.new-999999999-xxxxxx
	mkdir -p "$S/work/$stale/kernel" && touch "$S/work/$stale/kernel/copy.asm" && chmod a-w "$S/work/$stale/kernel"
	[ -n "$as_user" ] && chown -R 65534:65534 "$S/work/$stale"
	run_as b.db
	check "a stale hidden tree that cannot be removed exits 1" test $? -eq 1
	check "...naming it and how to remove it" grep -qF "out: the tree a stopped run left beside it, ./$stale, cannot be removed: ./$stale/kernel/copy.asm: Permission denied; remove it by hand" "$T/ro.err"
	check "...and writes nothing" diff -r "$S/work/out" "$S/ref_a"
	chmod -R u+w "$S/work/$stale"
	check "writable again, the run replaces out/" sh -c "cd '$S/work' && $as_user ../uarchgen gen -q --db ../b.db --templates ../templates --out out && diff -r out ../ref_b >/dev/null"
	check "...and leaves nothing beside it" sh -c "! ls -a '$S/work' | grep -q '^\.out\.'"
fi
summary
