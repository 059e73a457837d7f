#!/bin/sh
# Each recorded probe run as the import derives it again (--dry-run): the
# derivation's note printed whole, however many bands the table has, and
# its table whole, in the table line and in the summary's stability rows
# (of the summary --dry-run prints: the derivation may have changed since
# the run was recorded). The runs are those uarch.db's rules cite.
# usage: tests/recorded_notes.sh   (needs gen/uarchgen)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=$ROOT/gen/uarchgen
. "$ROOT/tests/lib.sh"
for ev in $(sqlite3 uarch.db "SELECT evidence FROM rule WHERE evidence GLOB 'evidence/*/summary.md'"); do
	archive=${ev%/summary.md}/run.archive
	[ -f "$archive" ] || continue
	"$GEN" import --dry-run "$archive" >"$T/note.out" 2>&1
	# Whole: it ends as its last sentence does, the regret's ("...x."), a
	# small trial's ("...(every copy forward N.NN)."), a shaped trial's
	# ("...N.NN sorted.") or memmove's copy for an overlap ("...at worst
	# N.NNNx.", "...libc beyond.", "...without losing at one.", "...keeps it
	# there.").
	check "the note of $archive is whole" sh -c \
		"grep -A2 '^table: ' '$T/note.out' | tail -1 | grep -Eq '(x|\(every copy forward [0-9.]+\)| [0-9.]+ sorted| libc beyond| without losing at one| keeps it there)\.\$'"
	# The note says the bands as "0..32: small; 33..: forward"; the table
	# line as "0..32 small; 33.. forward". Where the rule changed after its
	# derivation (a gate's repairs, the short cells of a run before the
	# gate), the note ends with the bands as kept: its last list, but for
	# the sentences on memmove's copies for an overlap, which follow it.
	note_bands=$(grep -A2 '^table: ' "$T/note.out" | tail -1 |
		sed 's/ \(This run timed no \|Where the ranges overlap \).*//; s/.*Lengths //; s/ (ties within.*//; s/, against the best measured copy at worst [0-9.]*x\.$//; s/\.\.\([0-9]*\): /..\1 /g')
	# A run whose compiled candidates all lost to every copy forward keeps
	# the baseline: its note lists no bands, and its stability rows show
	# the tables the passes derived before the workload judged them.
	if grep -A2 '^table: ' "$T/note.out" | tail -1 | grep -q 'Every copy forward: '; then
		check "the table line of $archive is every copy forward" grep -q '^table: [^:]*: 0\.\. forward$' "$T/note.out"
		continue
	fi
	# Where the small trial kept small_flat, the table copies by it where
	# the derivation, which the note's bands describe, has small.
	table_bands=$note_bands
	if grep -A2 '^table: ' "$T/note.out" | tail -1 | grep -q ' small_flat copies for small: '; then
		table_bands=$(echo "$note_bands" | sed 's/\bsmall\b/small_flat/g')
	fi
	check "the table line of $archive is whole" test "$(sed -n 's/^table: [^:]*: //p' "$T/note.out")" = "$table_bands"
	# The stability rows are the tables each pass derives; a range a band
	# trial kept whole (the note: "No band edge inside") binds the rule
	# alone, so there the rows may still split; and a table the search
	# fitted to the size profile is not what the passes derive, each
	# length weighing alike.
	grep -A2 '^table: ' "$T/note.out" | tail -1 | grep -Eq 'No band edge inside |The rule as kept: |, fitted to the size profile' && continue
	check "...and so is the summary's last stability row" test \
		"$(grep '^| 1\.\.[0-9]* |' "$T/note.out" | tail -1 | cut -d'|' -f7 | sed 's/^ //; s/ $//')" = "$note_bands"
done
summary
