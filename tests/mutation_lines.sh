# Shared by tests/mutate.sh, tests/rust_mutate.sh and tests/mutations_apply.sh:
# the lines of a mutation list (tests/mutations.txt, tests/rust/mutations.txt),
# "name | target | sed script", whose target, ending in @MARK, applies only
# to a flavor that has MARK. Run from the repository root.

flavor_marks() { # flavor_marks FLAVOR: the marks out/FLAVOR has, on one line
	{
		grep -q 'KIND_TO_USER, ' "out/$1/tests/routines.h" && echo user-copies
		grep -q '^#define [A-Z_]*FLAVOR_ISA "gpr"' "out/$1/copy_rule.h" || echo vector
		grep -q 'pub fn move_within' "out/$1/rust/src/copies.rs" 2>/dev/null && echo memmove
	} | paste -sd' ' -
}

# mutation_lines LIST [MARKS]: LIST's mutations, one a line as
# "name|target|script": comments and blank lines left out, the fields
# trimmed, the target's @MARK dropped; given MARKS (flavor_marks'), only
# those that apply to a flavor with them.
mutation_lines() {
	while IFS='|' read -r name target script; do
		case "$name" in '#'* | '') continue ;; esac
		target=$(printf "%s" "$target" | tr -d ' ')
		if [ $# -gt 1 ]; then
			case $target in *@*) case " $2 " in *" ${target#*@} "*) ;; *) continue ;; esac ;; esac
		fi
		printf '%s|%s|%s\n' "$(printf "%s" "$name" | sed "s/ *$//")" "${target%@*}" \
			"$(printf "%s" "$script" | sed "s/^ *//")"
	done <"$1"
}
