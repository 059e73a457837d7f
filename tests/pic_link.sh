#!/bin/sh
# out/FLAVOR/ links into a shared object and a PIE with no text relocations:
# both syntaxes, with GNU ld and, where installed, lld, each with -z text,
# which refuses a relocation in a read-only segment. The shared object then
# runs: its copy is checked from a program that loads it. It links under
# CET too (-z cet-report=error). Negative controls: the access-range table
# back in .rodata, and routines generated with --no-endbr, must be refused.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"
FLAVOR=${1:?usage: tests/pic_link.sh FLAVOR}
OUT=$ROOT/out/$FLAVOR
cc -std=c99 -O2 -fPIC -c "$OUT/copy_rule.c" -o "$T/rule.o" || exit 2
nasm -f elf64 "$OUT/x86_64/copy.asm" -o "$T/nasm.o" || exit 2
cc -c "$OUT/x86_64/copy.S" -o "$T/gas.o" || exit 2
linkers="bfd"
command -v ld.lld >/dev/null && linkers="$linkers lld"
for syntax in nasm gas; do
	for ld in $linkers; do
		check "$syntax objects link into a shared object with -z text ($ld)" \
			cc -fuse-ld=$ld -shared -Wl,-z,text "$T/$syntax.o" "$T/rule.o" -o "$T/lib$syntax.so"
	done
done
cat >"$T/main.c" <<'CEOF'
#include "copy_rule.h"
#include <stdio.h>
#include <string.h>
int main(void)
{
	static unsigned char a[8192], b[8192];
	for (int i = 0; i < 8192; i++)
		a[i] = (unsigned char)(i * 7);
	uc_rule_init();
	for (size_t n = 0; n <= 4096; n += 37)
		if (uc_memcpy(b + 3, a + 1, n) != b + 3 || memcmp(b + 3, a + 1, n) != 0)
			return 1;
	return 0;
}
CEOF
check "a PIE links with -z text" cc -fPIE -pie -Wl,-z,text -I"$OUT" "$T/main.c" "$T/nasm.o" "$T/rule.o" -o "$T/pie"
check "...and copies correctly" "$T/pie"
check "a program copies correctly through the shared object" sh -c \
	"cc -I'$OUT' '$T/main.c' -L'$T' -lgas -Wl,-rpath,'$T' -o '$T/dyn' && '$T/dyn'"
# Negative control: the table of addresses (a flavor with user copies has
# one) in a read-only section.
sed 's/^        section \.data\.rel\.ro .*$/        section .rodata/' "$OUT/x86_64/copy.asm" >"$T/ro.asm"
if cmp -s "$OUT/x86_64/copy.asm" "$T/ro.asm"; then
	grep -q '_access_end' "$OUT/x86_64/copy.asm" && bad "negative control: the section edit no longer applies"
else
	nasm -f elf64 "$T/ro.asm" -o "$T/ro.o"
	check "negative control: addresses in .rodata are refused with -z text" sh -c \
		"! cc -shared -Wl,-z,text '$T/ro.o' '$T/rule.o' -o '$T/ro.so' 2>/dev/null"
fi
# CET: every object must carry the IBT and shadow-stack property.
cc -std=c99 -O2 -fPIC -fcf-protection=full -c "$OUT/copy_rule.c" -o "$T/rule_cet.o" || exit 2
for syntax in nasm gas; do
	check "$syntax objects link under -z cet-report=error" \
		cc -shared -nostdlib -Wl,-z,cet-report=error "$T/$syntax.o" "$T/rule_cet.o" -o "$T/cet_$syntax.so"
done
"$ROOT/gen/uarchgen" gen -q --no-endbr --db "$ROOT/uarch.db" --out "$T/noendbr"
nasm -f elf64 "$T/noendbr/$FLAVOR/x86_64/copy.asm" -o "$T/noendbr.o"
check "negative control: routines without endbr64 and the note are refused under CET" sh -c \
	"! cc -shared -nostdlib -Wl,-z,cet-report=error '$T/noendbr.o' '$T/rule_cet.o' -o '$T/no.so' 2>/dev/null"
funcs=$(readelf -sW "$T/nasm.o" | awk '$4 == "FUNC" && $5 == "GLOBAL" { print $8 }')
missing=""
for f in $funcs; do
	first=$(objdump -d --no-show-raw-insn "$T/nasm.o" | awk -v f="<$f>:" '$2 == f { getline; print $2; exit }')
	[ "$first" = endbr64 ] || missing="$missing $f"
done
check "every exported function starts with endbr64 (${missing:-all do})" test -z "$missing" -a -n "$funcs"
summary
