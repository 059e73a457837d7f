#!/bin/sh
# README's walk, "A cell's life", against the files it names: each line's
# file exists; the rule_band row it quotes is in uarch.db; each name with
# an underscore it quotes is in its file (uc_ read as ${P} in a template);
# the instructions it quotes of a routine in copy.asm are that routine's,
# in that order; the instructions the paragraph after it quotes are the
# same routine's; and the walk names at most 12 files, numbered in order.
# Negative control: the walk with one quoted instruction changed fails.
# Prints "N passed, N failed" last; exits nonzero on any failure.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"

# walk_lines README: the walk's entries, one a line: "N<TAB>FILE<TAB>TEXT",
# a continuation line's text appended to its entry's.
walk_lines() {
	awk '/^## A cell.s life/ { on = 1 } on && /^```/ { fence++; if (fence == 2) exit; next }
	     on && fence == 1 {
		if (match($0, /^ ?[0-9]+ /)) {
			if (n) print n "\t" file "\t" text
			n = $1; file = $2; text = ""
			for (i = 3; i <= NF; i++) text = text (text == "" ? "" : " ") $i
		} else {
			sub(/^ +/, ""); text = text (text == "" ? "" : " ") $0
		}
	     }
	     END { if (n) print n "\t" file "\t" text }' "$1"
}

# routine_code ROUTINE: the routine's instructions and labels in
# out/kernel/x86_64/copy.asm, up to the next routine, one a line, without
# comments, marks or repeated blanks.
routine_code() {
	awk -v r="$1:" '$0 == r { on = 1; next } on && /^[a-z_0-9]+:$/ { exit } on' out/kernel/x86_64/copy.asm |
		sed 's/;.*//; s/[[:space:]]\{1,\}/ /g; s/^ //; s/ $//' | grep -v '^\.\.@' | grep -v '^$'
}

# has_sequence FILE LIST: the lines of LIST (" / " between them) appear in
# FILE one after another.
has_sequence() {
	printf '%s\n' "$2" | sed 's| / |\n|g' >"$T/want"
	awk 'NR == FNR { want[++n] = $0; next } { line[++m] = $0 }
	     END { for (i = 1; i + n - 1 <= m; i++) { k = 0; while (k < n && line[i + k] == want[k + 1]) k++; if (k == n) exit 0 } exit 1 }' \
		"$T/want" "$1"
}

# walk_holds README: every line of the walk holds; says which does not.
walk_holds() {
	walk_lines "$1" >"$T/walk"
	status=0
	[ -s "$T/walk" ] || { echo "no walk found in $1"; return 1; }
	files=$(cut -f2 "$T/walk" | sort -u | wc -l)
	[ "$files" -le 12 ] || { echo "the walk names $files files, more than 12"; status=1; }
	cut -f1 "$T/walk" | awk '$1 != NR { exit 1 }' || { echo "the walk's lines are not numbered 1, 2, ..."; status=1; }
	while IFS="$(printf '\t')" read -r n file text; do
		if [ ! -f "$file" ]; then
			echo "line $n: no file $file"
			status=1
			continue
		fi
		case $file in
		uarch.db)
			row=$(printf '%s' "$text" | sed -n 's/^rule_band (\(.*\), \.\.\.)$/\1/p' | tr -d ' ')
			sqlite3 uarch.db .dump | tr -d ' ' | grep -qF "INSERTINTOrule_bandVALUES($row," ||
				{ echo "line $n: no rule_band row ($row, ...) in uarch.db"; status=1; }
			;;
		*.asm)
			routine=${text%%:*}
			routine_code "$routine" >"$T/code"
			has_sequence "$T/code" "${text#*: }" ||
				{ echo "line $n: $routine does not run ${text#*: }"; status=1; }
			;;
		*)
			for ident in $(printf '%s\n' "$text" | grep -oE '[A-Za-z_][A-Za-z0-9]*_[A-Za-z0-9_]*' | sort -u); do
				templ=$(printf '%s' "$ident" | sed 's/^uc_/${P}/')
				grep -qF -e "$ident" -e "$templ" "$file" || { echo "line $n: no $ident in $file"; status=1; }
			done
			;;
		esac
	done <"$T/walk"
	# The paragraph after the walk: its quoted instructions are zen2's.
	routine_code uc_memcpy_zen2 >"$T/code"
	sed -n '/^## A cell.s life/,/^One `copy.asm`/p' "$1" | sed -n '/^Per call:/,/^$/p' | tr '\n' ' ' |
		grep -oE '`[a-z]+ [^`(]+`' | tr -d '`' >"$T/quoted"
	[ -s "$T/quoted" ] || { echo "the paragraph after the walk quotes no instruction"; status=1; }
	while read -r insn; do
		grep -qxF "$insn" "$T/code" || { echo "uc_memcpy_zen2 has no '$insn'"; status=1; }
	done <"$T/quoted"
	return $status
}

check "README's walk holds: its files, row, names and instructions" walk_holds README.md
sed 's|jbe near .Lmemcpy_zen2_forward|ja near .Lmemcpy_zen2_forward|' README.md >"$T/README.changed"
fails_changed() { # the walk with its quoted jbe made a ja: the test must fail it
	! cmp -s README.md "$T/README.changed" && ! walk_holds "$T/README.changed"
}
check "...and a quoted instruction changed fails it (the control)" fails_changed
summary
