#!/bin/sh
# No evidence run ID (an entry, a date and six hex digits, the name of a
# folder of evidence/) in the hand-written sources: a comment states its
# rule and why, and where figures back it points to a notebook heading
# (docs/notebook/<file>.md#<anchor>) that keeps the run and its figures. The sources: each file git tracks, or would add,
# named *.c, *.h, *.lua, *.tpl, *.tpi, *.asm, *.S, *.sh, *.mk, *.rs, *.py
# or Makefile, outside out/ (generated: copy_rule.c names each rule's
# evidence from the database), tests/fixtures/, evidence/ and docs/. Every
# run ID there fails, named by file and line, unless this script's
# allow-list names its file and run ID with a reason: no source parses
# comments, so a run ID a source holds as data (a path a test opens, a
# fixture's name) is allowed by name, never by guessing it is code. And
# each notebook anchor a source names is a heading of that notebook.
# Controls: a copy of derive/repair.h with a run ID put into a comment
# fails, on that line; allowed by name, it passes; a pointer to a heading
# the notebook does not have fails. (This script spells the controls' run
# ID and pointer in two parts, so that it holds neither itself.)
# usage: tests/comment_ids.sh
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"

ID_RE='[a-z0-9_]+-20[0-9]{2}-[0-9]{2}-[0-9]{2}-[0-9a-f]{6}'
ANCHOR_RE='docs/notebook/[A-Za-z0-9_.-]+\.md#[A-Za-z0-9_-]+'

# The allow-list, one line each: FILE RUN-ID REASON, a run ID that FILE
# holds as data. Empty: no source holds one.
ALLOWED=''

# sources: the hand-written sources, one path a line.
sources() {
	git ls-files --cached --others --exclude-standard |
		grep -E '(\.(c|h|lua|tpl|tpi|asm|S|sh|mk|rs|py)|(^|/)Makefile)$' |
		grep -Ev '^(out|tests/fixtures|evidence|docs)/' |
		while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done
}

# run_ids DIR LIST ALLOWED: each run ID in the files LIST names, read
# under DIR, as "FILE:LINE: ID", but those ALLOWED names.
run_ids() {
	(cd "$1" && tr '\n' '\0' <"$2" | xargs -0 -r grep -HnoE "$ID_RE") |
		awk -v allowed="$3" '
			BEGIN { n = split(allowed, a, "\n"); for (i = 1; i <= n; i++) { split(a[i], w, " "); if (w[2] != "") ok[w[1] " " w[2]] = 1 } }
			{ file = $0; sub(/:.*/, "", file); rest = substr($0, length(file) + 2)
			  line = rest; sub(/:.*/, "", line); id = substr(rest, length(line) + 2)
			  if (!((file " " id) in ok)) print file ":" line ": " id }'
}

# anchors NOTEBOOK: its headings' anchors, as GitHub writes them, one a line.
anchors() {
	sed -n 's/^#\{1,6\} \{1,\}//p' "$1" | tr '[:upper:]' '[:lower:]' | sed 's/[^a-z0-9 _-]//g; s/ /-/g'
}

# dangling DIR LIST: each pointer in the files LIST names, read under DIR,
# to a notebook or a heading this tree does not have, as "FILE:LINE: POINTER".
dangling() {
	(cd "$1" && tr '\n' '\0' <"$2" | xargs -0 -r grep -HnoE "$ANCHOR_RE") |
		while IFS= read -r hit; do
			file=${hit%%:*}
			rest=${hit#*:}
			line=${rest%%:*}
			pointer=${rest#*:}
			book=${pointer%%#*}
			if [ ! -f "$ROOT/$book" ] || ! anchors "$ROOT/$book" | grep -qxF "${pointer#*#}"; then
				echo "$file:$line: $pointer"
			fi
		done
}

sources >"$T/sources"
check "the sources are found ($(wc -l <"$T/sources") files)" test "$(wc -l <"$T/sources")" -gt 100

run_ids "$ROOT" "$T/sources" "$ALLOWED" >"$T/ids"
if [ -s "$T/ids" ]; then
	bad "run IDs in the sources; a comment points to a notebook heading instead (docs/notebook/):"
	sed 's/^/    /' "$T/ids"
else
	ok
fi

dangling "$ROOT" "$T/sources" >"$T/dangling"
if [ -s "$T/dangling" ]; then
	bad "pointers to notebook headings that do not exist:"
	sed 's/^/    /' "$T/dangling"
else
	ok
fi

# Controls, on a copy of one source.
RUN=zen3-2026-11-30-
RUN=${RUN}50896c
NOTEBOOK=docs/notebook/measurements-2026-12.md
C=$T/control
mkdir -p "$C/derive"
cp derive/repair.h "$C/derive/repair.h"
echo derive/repair.h >"$T/one"
line=$(($(wc -l <derive/repair.h) + 1))
echo "/* measured on a Zen 3 guest (evidence/$RUN) */" >>"$C/derive/repair.h"
check "a run ID put into a comment fails, named by file and line (control)" \
	test "$(run_ids "$C" "$T/one" "$ALLOWED")" = "derive/repair.h:$line: $RUN"
check "the same run ID allowed by name passes (control)" \
	test -z "$(run_ids "$C" "$T/one" "derive/repair.h $RUN a path the test opens")"
cp derive/repair.h "$C/derive/repair.h"
echo "/* measured: see $NOTEBOOK#no-such-heading */" >>"$C/derive/repair.h"
check "a pointer to a heading the notebook does not have fails (control)" \
	test "$(dangling "$C" "$T/one")" = "derive/repair.h:$line: $NOTEBOOK#no-such-heading"
summary
