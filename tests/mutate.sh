#!/bin/sh
# Mutation testing: applies each defect of tests/mutations.txt to the
# generated source of a flavor (the NASM or the GAS form, as the line says),
# assembles it, links the generated tests, the ABI harness and (for a flavor
# with user copies) the fault tests against the mutant, and counts the
# mutant killed when any fails. A mutant marked for user copies or for
# vector strategies runs only against a flavor that has them.
# Prints "mutants killed: K of N" and, for the summary, "K passed, N-K failed".
# usage: tests/mutate.sh [-v] FLAVOR   (run from the repository root after make check)
set -u
if [ "${1:-}" = "--help" ]; then
	sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi
verbose=
[ "${1:-}" = "-v" ] && { verbose=-v; shift; }
F=${1:?usage: tests/mutate.sh [-v] FLAVOR}
B=build/$F
SRC=out/$F/x86_64/copy
CFLAGS="-no-pie -D_GNU_SOURCE -Iout/$F"
# What the flavor has decides which mutants apply: those marked @user-copies
# need its user copies, those marked @vector its vector strategies
# (flavor_marks); the others apply to every flavor.
. "$(dirname "$0")/mutation_lines.sh"
marks=$(flavor_marks "$F")
user_copies=0
case " $marks " in *" user-copies "*) user_copies=1 ;; esac
need="$SRC.asm $SRC.S $B/rule_tests.o $B/copy_rule.o tests/run_rule_tests.c build/abi_trampoline.o build/abi_broken.o"
[ $user_copies = 1 ] && need="$need $B/copy_rule_remaining.o"
for f in $need; do
	[ -e "$f" ] || { echo "mutate: $f is missing: run make check first" >&2; exit 2; }
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
# The test programs' own C, compiled once: each mutant is only linked.
# shellcheck disable=SC2086
cc $CFLAGS -I. -c tests/run_rule_tests.c -o "$T/run_rule_tests.o" &&
	cc $CFLAGS -I. -c common/text_poke.c -o "$T/text_poke.o" &&
	cc $CFLAGS -c tests/abi_harness.c -o "$T/abi_harness.o" || exit 2
if [ $user_copies = 1 ]; then
	for c in fault_tests fault_sweeps; do
		# shellcheck disable=SC2086
		cc $CFLAGS -c tests/$c.c -o "$T/$c.o" || exit 2
	done
fi
total=0
killed=0
broken=0
mutation_lines tests/mutations.txt "$marks" >"$T/mutations"
while IFS='|' read -r name syntax script; do
	total=$((total + 1))
	# nasm-remaining: the NASM form generated with --user-copy-result=remaining.
	dir=out/$F rule_o=$B/copy_rule.o
	case $syntax in
	nasm) src=$SRC.asm mutant=$T/mutant.asm ;;
	gas) src=$SRC.S mutant=$T/mutant.S ;;
	nasm-remaining)
		dir=build/$F-remaining/out/$F rule_o=$B/copy_rule_remaining.o
		src=$dir/x86_64/copy.asm mutant=$T/mutant.asm ;;
	c) src=$dir/copy_rule.c mutant=$T/mutant_rule.c rule_o=$T/mutant_rule.o ;;
	*) echo "BROKEN  $name: syntax '$syntax' is not nasm, gas, c or nasm-remaining (with @user-copies or @vector)"; broken=$((broken + 1)); continue ;;
	esac
	sed "$script" "$src" >"$mutant"
	if cmp -s "$src" "$mutant"; then
		echo "BROKEN  $name: the mutation no longer applies to $src"
		broken=$((broken + 1))
		continue
	fi
	if [ "$syntax" = c ]; then
		# The resolver: copy_rule.c mutated, the routines as built.
		cc -std=c99 -ffreestanding -mgeneral-regs-only -mno-red-zone -I"$dir" -c "$mutant" -o "$rule_o" 2>"$T/as.err" &&
			cp "$B/copy.o" "$T/mutant.o"
	elif [ "$syntax" != gas ]; then
		nasm -f elf64 "$mutant" -o "$T/mutant.o" 2>"$T/as.err"
	else
		cc -c "$mutant" -o "$T/mutant.o" 2>"$T/as.err"
	fi
	as_rc=$?
	if [ $as_rc -eq 0 ] && [ "$syntax" = nasm-remaining ]; then
		# Only the fault tests know the remaining contract; the others pass trivially.
		: >"$T/run.c" && printf 'int main(void) { return 0; }\n' >"$T/run.c" && cc "$T/run.c" -o "$T/run" && cp "$T/run" "$T/abi" &&
			cc -no-pie -D_GNU_SOURCE -I"$dir" tests/fault_tests.c tests/fault_sweeps.c common/text_poke.c "$rule_o" "$T/mutant.o" -o "$T/faults" 2>"$T/cc.err"
		as_rc=$?
	elif [ $as_rc -eq 0 ]; then
		# shellcheck disable=SC2086
		cc -no-pie "$T/run_rule_tests.o" "$T/text_poke.o" $B/rule_tests.o "$rule_o" "$T/mutant.o" -o "$T/run" 2>"$T/cc.err" &&
			cc -no-pie "$T/abi_harness.o" "$T/text_poke.o" build/abi_trampoline.o build/abi_broken.o "$rule_o" "$T/mutant.o" \
				-o "$T/abi" 2>>"$T/cc.err" &&
			if [ $user_copies = 1 ]; then
				cc -no-pie "$T/fault_tests.o" "$T/fault_sweeps.o" "$T/text_poke.o" "$rule_o" "$T/mutant.o" -o "$T/faults" 2>>"$T/cc.err"
			else
				printf '#!/bin/sh\n' >"$T/faults" && chmod +x "$T/faults" # no user copies: no fault tests
			fi
		as_rc=$?
	fi
	if [ $as_rc -ne 0 ]; then
		echo "BROKEN  $name: the mutant does not build"
		cat "$T/as.err" "$T/cc.err" 2>/dev/null | head -5
		broken=$((broken + 1))
		continue
	fi
	# -x: a mutant is killed by its first failure; only a survivor runs every test.
	if timeout 60 "$T/run" -x >"$T/out" 2>&1 && timeout 60 "$T/abi" >>"$T/out" 2>&1 &&
		timeout 60 "$T/faults" >>"$T/out" 2>&1; then
		echo "SURVIVED $name ($syntax): the tests pass against it; a test is missing"
	else
		killed=$((killed + 1))
		if [ "$verbose" = "-v" ]; then
			echo "killed  $name ($syntax): $(grep -m1 '^FAIL' "$T/out" || tail -1 "$T/out")"
		fi
	fi
done <"$T/mutations"
echo "mutants killed: $killed of $total"
echo "$killed passed, $((total - killed)) failed"
[ "$killed" -eq "$total" ] && [ "$broken" -eq 0 ]
