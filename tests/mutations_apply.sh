#!/bin/sh
# Every mutant of make mutate still applies to the current out/: each line
# of tests/mutations.txt and tests/rust/mutations.txt, its sed script run
# on a copy of the file it names in every flavor it applies to (out/<flavor>/,
# or for nasm-remaining the flavor generated with --user-copy-result
# remaining), must change that copy, and each must apply to one flavor at
# least, so that a renamed label or comment cannot retire a mutant
# unnoticed. Nothing is built or run: whether the tests kill each mutant is
# make mutate's to say. Control: a list whose script matches nothing fails,
# in every flavor and as applying to none.
# usage: tests/mutations_apply.sh
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"
. "$ROOT/tests/mutation_lines.sh"
flavors=$(gen/uarchgen flavors | cut -d' ' -f1)
R=$T/remaining
gen/uarchgen gen -q --user-copy-result remaining --out "$R" || { bad "gen --user-copy-result remaining fails"; summary; exit; }

c_source() { # c_source FLAVOR SYNTAX: the file a line of tests/mutations.txt patches
	case $2 in
	nasm) echo "out/$1/x86_64/copy.asm" ;;
	gas) echo "out/$1/x86_64/copy.S" ;;
	c) echo "out/$1/copy_rule.c" ;;
	nasm-remaining) echo "$R/$1/x86_64/copy.asm" ;;
	esac
}
rust_source() { # rust_source FLAVOR FILE: the file a line of tests/rust/mutations.txt patches
	echo "out/$1/$2"
}

# applies SCRIPT FILE: SCRIPT changes a copy of FILE.
applies() {
	sed "$1" "$2" >"$T/mutant" 2>"$T/sed.err" && ! cmp -s "$2" "$T/mutant"
}

# unapplied LIST SOURCE: LIST's mutations that leave their file (which
# SOURCE FLAVOR TARGET names) unchanged, in each flavor they apply to, and
# those that apply to none, one a line; the applied ones counted in $applied.
unapplied() {
	applied=0
	: >"$T/names"
	for f in $flavors; do
		mutation_lines "$1" "$(flavor_marks "$f")" >"$T/lines"
		while IFS='|' read -r name target script; do
			src=$($2 "$f" "$target")
			: >"$T/sed.err"
			if [ -n "$src" ] && [ -f "$src" ] && applies "$script" "$src"; then
				applied=$((applied + 1))
				echo "$name" >>"$T/names"
			else
				echo "$name: it no longer applies to ${src:-$target} ($f)$(sed -n '1s/^/: /p' "$T/sed.err")"
			fi
		done <"$T/lines"
	done
	mutation_lines "$1" | cut -d'|' -f1 | sort -u >"$T/all"
	sort -u "$T/names" | comm -23 "$T/all" - | sed 's/$/: it applies to no flavor/'
}

# judge LIST SOURCE: one pass for each mutation applied, a failure for each not.
judge() {
	unapplied "$1" "$2" >"$T/broken"
	pass=$((pass + applied))
	[ "$applied" -gt 0 ] || bad "$1: no mutation applies"
	while IFS= read -r line; do bad "$1: $line"; done <"$T/broken"
	echo "$1: $applied applied"
}

judge tests/mutations.txt c_source
judge tests/rust/mutations.txt rust_source

# Control: a list of one script, unmarked, that matches nothing.
printf 'matches nothing | x86_64/copy.S | s/^no line reads this$/x/\n' >"$T/control.txt"
n=$(unapplied "$T/control.txt" rust_source | grep -c '^matches nothing: ')
check "a script that matches nothing fails, in each flavor and as applying to none (control)" \
	test "$n" -eq $(($(echo "$flavors" | wc -w) + 1))
summary
