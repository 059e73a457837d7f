#!/bin/sh
# memmove's overlap compares stand only before the copies that need them
# (memmove.tpi): in each compiled memmove of every flavor that has one, a
# copy that loads everything before it stores (direction any in uarchgen
# strategies) is reached with no overlap compare, the entry's path to it
# included, and a copy that goes one way starts with both compares, to
# the copies that go the safe way. The drop-in library's memcpy is this
# memmove (preload.sh checks the one stub), so memcpy pays the compares
# only where memmove does. Negative controls: the compares taken from
# before a copy that goes one way, one put before a copy that loads first,
# and one put at a routine's entry each fail it. Prints "N passed, N
# failed" last.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"

gen/uarchgen strategies | awk '{ print $2, $7 }' >"$T/directions"

# guards_right ASM: every memmove routine of ASM as above; says where
# not. Its tree runs to its copy_end mark, where it has one (a compiled
# table's), else to its first copy (the table dispatch's).
guards_right() {
	awk 'FILENAME == ARGV[1] { way[$1] = $2; next }
	     FILENAME == ARGV[2] && pass == 0 { if (/^\.\.@uc_memmove_[a-z0-9_]+\.copy_end:$/) { x = $0; sub(/^\.\.@/, "", x); sub(/\.copy_end:$/, "", x); ends[x] = 1 } next }
	     /^uc_memmove_[a-z0-9_]+:$/ { r = substr($0, 1, length($0) - 1); tree = 1; next }
	     /^uc_[a-z0-9_]+:$/ { r = "" }
	     r == "" { next }
	     /\.copy_end:$/ { tree = 0 }
	     { sub(/;.*/, "") }
	     tree && /cmp +rcx, rdx/ { print r ": an overlap compare in the tree, before any copy"; bad = 1 }
	     /^\.L[a-z0-9_]+_disjoint_[a-z0-9_]+:$/ {
		if (!(r in ends)) tree = 0
		s = $0; sub(/^\.L[a-z0-9_]+_disjoint_/, "", s); sub(/:$/, "", s)
		if (s ~ /^falls_/) { s = substr(s, 7); sub(/_[mn][0-9]+$/, "", s) }
		if (s in way) { at = s; left = 8; above = below = 0 }
		next
	     }
	     at != "" {
		above += /_overlap_above/; below += /_overlap_below/
		if (/^ +ret/ || --left == 0) {
			if (way[at] == "any" && (above || below)) { print r ": " at " loads first, yet takes an overlap compare"; bad = 1 }
			if (way[at] != "any" && !(above && below)) { print r ": " at " goes one way, without both overlap compares"; bad = 1 }
			at = ""
		}
	     }
	     END { exit bad }' "$T/directions" "$1" pass=1 "$1"
}

# fails_on ASM CHANGED: CHANGED differs from ASM, and guards_right fails it.
fails_on() { ! cmp -s "$1" "$2" && ! guards_right "$2"; }

found=0
for asm in out/*/x86_64/copy.asm; do
	grep -q '^uc_memmove_[a-z0-9_]*:$' "$asm" || continue
	found=1
	check "$asm: overlap compares only before the copies that go one way" guards_right "$asm"
	awk '/^\.L[a-z0-9_]+_disjoint_avx2_forward:$/ { cut = 8 } cut && /_overlap_/ { cut--; next } cut { cut-- } { print }' \
		"$asm" >"$T/unguarded.asm"
	check "...the compares taken from avx2_forward's start fail it (control)" fails_on "$asm" "$T/unguarded.asm"
	awk '{ print } /^\.L[a-z0-9_]+_disjoint_avx512_masked:$/ { print "        jb      .Lx_overlap_above" }' \
		"$asm" >"$T/guarded.asm"
	check "...an overlap compare put before avx512_masked fails it (control)" fails_on "$asm" "$T/guarded.asm"
	awk '{ print } /^uc_memmove_[a-z0-9_]+:$/ { print "        cmp     rcx, rdx" }' "$asm" >"$T/entry.asm"
	check "...and one put at a routine's entry, before its tree (control)" fails_on "$asm" "$T/entry.asm"
done
check "a flavor has a compiled memmove" test "$found" -eq 1
summary
