#!/bin/sh
# uarch.db and out/ under git merge, in a scratch repository holding this
# tree: two branches that each measured a different core merge cleanly, and
# `uarchgen check` passes right after; two that measured the same core stop
# with a message naming the entry and both runs, uarch.db left as ours.
# usage: tests/merge_git.sh   (needs build/uarchcopy-probe and git)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROBE=$ROOT/build/uarchcopy-probe
FORGE=$ROOT/tests/forge_archive.sh
. "$ROOT/tests/lib.sh"

mkdir "$T/probe" && "$PROBE" --quick --flavor kernel --out "$T/probe" >/dev/null 2>&1 && mv "$T"/probe/*.run "$T/here.run"
"$FORGE" "$T/here.run" "$T/spr.run" GenuineIntel 000806f8 none "Intel(R) Xeon(R) Platinum 8480+"
# Both cores are unmeasured in the shipped uarch.db, so each branch adds a rule
# rather than replacing one.
"$FORGE" "$T/here.run" "$T/zen4.run" AuthenticAMD 00a10f11 KVMKVMKVM "AMD EPYC 9654 96-Core Processor"
"$FORGE" "$T/here.run" "$T/zen4b.run" AuthenticAMD 00aa0f01 none "AMD EPYC 9754 128-Core Processor"

R=$T/repo
mkdir "$R"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$R"
cp gen/uarchgen "$R/gen/"
cd "$R" || exit 2
git init -q && git config user.email test@example.org && git config user.name test
check "make git-drivers registers the drivers" make -s git-drivers
git add -A && git commit -qm base
base=$(git rev-parse HEAD)
measure() { # measure BRANCH ARCHIVE: a branch off base that imports ARCHIVE and regenerates out/
	git checkout -q -b "$1" "$base" && gen/uarchgen import "$2" >/dev/null && gen/uarchgen gen -q &&
		git add -A && git commit -qm "measure $1"
}
check "branch intel measures sapphirerapids" measure intel "$T/spr.run"
check "branch amd measures zen4" measure amd "$T/zen4.run"
check "git merge of the two succeeds" git merge -q --no-edit intel
check "...leaving nothing unmerged" test -z "$(git diff --name-only --diff-filter=U)"
check "...and a clean working tree" test -z "$(git status --porcelain)"
check "...with both rules measured" test "$(sqlite3 uarch.db \
	"SELECT group_concat(uarch) FROM (SELECT uarch FROM rule WHERE flavor = 'kernel' AND uarch IN ('sapphirerapids', 'zen4') ORDER BY uarch)")" = \
	"sapphirerapids,zen4"
check "...both runs and their evidence" test "$(sqlite3 uarch.db "SELECT count(*) FROM run")" -eq \
	"$(($(sqlite3 "$ROOT/uarch.db" "SELECT count(*) FROM run") + 2))"
check "uarchgen check passes right after the merge" gen/uarchgen check
check "...and the merged out/ holds both" sh -c "grep -q 'UC_RULE_MEASURED, \"sapphirerapids\"' out/kernel/copy_rule.c &&
	grep -q 'UC_RULE_MEASURED, \"zen4\"' out/kernel/copy_rule.c"

# The same core, measured on two branches.
check "branch one measures zen4" measure one "$T/zen4.run"
check "branch two measures zen4 from another run" measure two "$T/zen4b.run"
git merge -q --no-edit one >"$T/merge.out" 2>&1
rc=$?
check "git merge of the two stops" test $rc -ne 0
check "...naming the entry" grep -q "entry zen4 (flavor kernel) was measured on both branches" "$T/merge.out"
ours=$(sqlite3 uarch.db "SELECT evidence FROM rule WHERE uarch = 'zen4' AND flavor = 'kernel'")
theirs=$(git show one:uarch.db >"$T/theirs.db" && sqlite3 "$T/theirs.db" "SELECT evidence FROM rule WHERE uarch = 'zen4' AND flavor = 'kernel'")
check "...and both runs" grep -q "ours $ours, theirs $theirs" "$T/merge.out"
check "...uarch.db left as ours" sh -c "git show HEAD:uarch.db | cmp - uarch.db"
check "...and marked unmerged" sh -c "git diff --name-only --diff-filter=U | grep -qx uarch.db"
cat "$T/merge.out" >&2
git merge --abort

summary
