#!/bin/sh
# The instruction scan on a flavor's generated objects, under the flavor's
# ISA and red-zone limits (uarchgen flavors), and its negative controls: each
# instruction forbidden to a general-register flavor without a red zone,
# assembled on its own, must be caught with its reason; a clean routine must
# pass. usage: tests/scan_test.sh FLAVOR
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCAN=$ROOT/tests/scan_objects.sh
. "$ROOT/tests/lib.sh"
FLAVOR=${1:?usage: tests/scan_test.sh FLAVOR}
limits=$(gen/uarchgen flavors | awk -v f="$FLAVOR" '$1 == f { print "--isa", $2, "--red-zone", $3 }')
[ -n "$limits" ] || { echo "scan_test.sh: no flavor $FLAVOR" >&2; exit 2; }

# Each routine that runs one strategy alone has the gate of that strategy's
# isa (out/<flavor>/tests/routines.h); those that run the installed table
# (isa -1) have the flavor's, which rule_install narrows to what the CPU has.
gates=$(sed -n 's/^\tX(\([A-Za-z0-9_]*\), "[a-z0-9_]*", [A-Z_]*, [^,]*, [^,]*, \([0-9]\)) \\$/--gate \1=\2/p' \
	"out/$FLAVOR/tests/routines.h" | sed 's/=0$/=gpr/; s/=1$/=avx2/; s/=2$/=avx512/')
check "routines.h gives every routine's gate" test -n "$gates"
# Each strategy's own routine (copy_rule.h's UC_STRATEGY_ROUTINES) must be
# scanned against its strategy's isa: a routine missing from the gates, or
# gated wider, would let its instructions go unchecked.
want=$(sed -n 's/^\tX(UC_STRATEGY_[A-Z0-9_]*, \([a-z0-9_]*\), \([0-9]\), .*) \\$/--gate \1=\2/p' "out/$FLAVOR/copy_rule.h" |
	sed 's/=0$/=gpr/; s/=1$/=avx2/; s/=2$/=avx512/')
missing=$(printf '%s\n' "$want" | while read -r w; do printf '%s\n' "$gates" | grep -qx -- "$w" || echo "$w"; done)
check "every strategy routine is gated by its strategy's isa" sh -c "test -n '$want' && test -z '$missing'"
# shellcheck disable=SC2086
if "$SCAN" $limits $gates "$ROOT/build/$FLAVOR/copy.o" >"$T/out" 2>&1; then ok; else bad "out/$FLAVOR/x86_64/copy.asm:"; cat "$T/out"; fi
# shellcheck disable=SC2086
if "$SCAN" $limits --allow-call "$ROOT/build/$FLAVOR/copy_rule.o" >"$T/out" 2>&1; then ok; else bad "out/$FLAVOR/copy_rule.c:"; cat "$T/out"; fi

caught() { # caught NAME REASON INSTRUCTION...: the scan must flag this code
	name=$1 reason=$2
	shift 2
	{ echo "bits 64"; echo "section .text"; echo "f:"; for i in "$@"; do echo "  $i"; done; echo "  ret"; } >"$T/$name.asm"
	nasm -f elf64 "$T/$name.asm" -o "$T/$name.o" || { bad "$name: does not assemble"; return; }
	if "$SCAN" "$T/$name.o" >"$T/out" 2>&1; then
		bad "$name: the scan passed it"
	elif grep -q ": $reason\$" "$T/out"; then
		ok
	else
		bad "$name: flagged, but not as '$reason': $(cat "$T/out")"
	fi
}
caught xmm "vector register" "movdqu xmm0, [rsi]"
caught ymm "vector register" "vmovdqu ymm1, [rsi]"
caught zmm "vector register" "vmovdqu64 zmm2, [rsi]"
caught std "writes DF" "std"
caught cld "writes DF" "cld"
caught call "call" "call f"
caught below_rsp "memory below rsp" "mov [rsp - 8], rax"
caught below_rsp_indexed "memory below rsp" "mov rax, [rsp + rcx * 8 - 136]"

# A strategy routine that reaches past its gate: ymm in a general-register
# routine, zmm in an AVX2 one, in an object whose flavor allows both.
{ echo "bits 64"; echo "section .text"; echo "global uc_copy_down, uc_copy_avx2_down, uc_copy_avx512_down";
  echo "uc_copy_down:"; echo "  vmovdqu ymm0, [rsi]"; echo "  ret";
  echo "uc_copy_avx2_down:"; echo ".Lloop:"; echo "  vmovdqu64 zmm0, [rsi]"; echo "  ret";
  echo "uc_copy_avx512_down:"; echo "  vmovdqu64 zmm0, [rsi]"; echo "  ret"; } >"$T/gates.asm"
nasm -f elf64 "$T/gates.asm" -o "$T/gates.o"
"$SCAN" --isa avx512 --red-zone 1 --gate uc_copy_down=gpr --gate uc_copy_avx2_down=avx2 --gate uc_copy_avx512_down=avx512 \
	"$T/gates.o" >"$T/out" 2>&1
check "ymm past a general-register gate is caught" grep -q 'vmovdqu ymm0,.*: vector register beyond its gate$' "$T/out"
check "zmm past an AVX2 gate is caught" test "$(grep -c 'zmm0,.*: vector register beyond its gate$' "$T/out")" -eq 1

{ echo "bits 64"; echo "section .text"; echo "f:"; echo "  mov rax, [rsp + 8]"; echo "  rep movsb"; echo "  ret"; } >"$T/clean.asm"
nasm -f elf64 "$T/clean.asm" -o "$T/clean.o"
if "$SCAN" "$T/clean.o" >"$T/out" 2>&1; then ok; else bad "a clean routine was flagged: $(cat "$T/out")"; fi

summary
