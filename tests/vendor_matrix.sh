#!/bin/sh
# The vendoring options against every flavor: each of the default, --smap,
# --memcpy-symbol, --prefix kc_ and --target ENTRY for every measured entry
# is generated into a scratch folder, and each flavor's tree there builds as
# a kernel builds it: copy_rule.c and tests/rule_tests.c by gcc and by clang
# under the kernel's flags (KFLAGS, lib.sh, with -Werror), x86_64/copy.asm
# by NASM and x86_64/copy.S by GAS, each with warnings as errors. What each
# option does to the code is gen_cli.sh's to check; this one checks that no
# pairing of an option and a flavor stops a vendor's build. The builds run
# in parallel, one per CPU.
# Prints "N passed, N failed" last; exits nonzero on any failure.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=$ROOT/gen/uarchgen
. "$ROOT/tests/lib.sh"
for tool in gcc clang nasm; do
	command -v $tool >/dev/null || { echo "$tool is missing (make deps)"; exit 2; }
done
jobs=$(nproc 2>/dev/null || echo 2)

# The option sets, one a line: a name, then the options. The entries come
# from uarchgen query, whose status column says which are measured.
{
	echo "default"
	echo "smap --smap"
	echo "memcpy-symbol --memcpy-symbol"
	echo "prefix --prefix kc_"
	"$GEN" query | awk '$4 == "measured" { print $1 }' | sort -u | while read -r u; do echo "target-$u --target $u"; done
} >"$T/sets"
check "query lists measured entries to target" grep -q '^target-' "$T/sets"

# One uarchgen run per option set writes every flavor.
while read -r name options; do
	# shellcheck disable=SC2086
	check "$name: generates" "$GEN" gen -q $options --out "$T/$name"
done <"$T/sets"

# build NAME FLAVOR: one tree's builds, one result line each into
# $T/result.NAME.FLAVOR ("ok WHAT" or "bad WHAT" and the log after it).
build() {
	d=$T/$1/$2 o=$T/obj.$1.$2 r=$T/result.$1.$2
	: >"$r"
	step() { # step WHAT COMMAND...
		what=$1
		shift
		if "$@" >"$o.log" 2>&1; then echo "ok $what" >>"$r"; else
			echo "bad $what" >>"$r" && head -20 "$o.log" | sed 's/^/    /' >>"$r"
		fi
	}
	step "gcc builds the C" build_c gcc "$d" "$o.gcc"
	step "clang builds the C" build_c clang "$d" "$o.clang"
	step "NASM assembles copy.asm" nasm -w+error -f elf64 "$d/x86_64/copy.asm" -o "$o.nasm.o"
	step "GAS assembles copy.S" gcc -c -Wa,--fatal-warnings "$d/x86_64/copy.S" -o "$o.gas.o"
}
running=0
for f in $("$GEN" flavors | cut -d' ' -f1); do
	while read -r name options; do
		build "$name" "$f" &
		running=$((running + 1))
		if [ $running -ge "$jobs" ]; then
			wait
			running=0
		fi
	done <"$T/sets"
done
wait

for r in "$T"/result.*; do
	tree=${r#"$T/result."}
	if [ ! -s "$r" ]; then
		bad "$tree: no build ran"
		continue
	fi
	while IFS= read -r line; do
		case $line in
		"ok "*) ok ;;
		"bad "*) bad "${tree%.*}, flavor ${tree##*.}: ${line#bad }" ;;
		*) echo "$line" ;;
		esac
	done <"$r"
done
echo "note: $(wc -l <"$T/sets") option sets by $("$GEN" flavors | wc -l) flavors, each tree built by gcc, clang, NASM and GAS"
summary
