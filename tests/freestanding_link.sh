#!/bin/sh
# out/FLAVOR/, vendored by copying, compiles with a kernel's flags and links into a
# freestanding ELF with nothing undefined. The generated tests may also need
# memset (clang emits it for zeroed locals), which docs/vendoring.md documents; nothing
# else may be left undefined. A negative control proves the check fails.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"
KFLAGS="-std=c99 -Wall -Wextra -Werror -pedantic -ffreestanding -nostdlib -mno-red-zone -mgeneral-regs-only \
-mcmodel=kernel -fno-pic -fno-pie -fno-stack-protector -O2"
ALLOWED="memset memcpy"

FLAVOR=${1:?usage: tests/freestanding_link.sh FLAVOR}
mkdir -p "$T/vendor" && cp -r "$ROOT/out/$FLAVOR/." "$T/vendor/"
cd "$T/vendor" || exit 2
# shellcheck disable=SC2086
if cc $KFLAGS -c copy_rule.c -o "$T/copy_rule.o" && cc $KFLAGS -c tests/rule_tests.c -o "$T/rule_tests.o" &&
	nasm -f elf64 x86_64/copy.asm -o "$T/copy.o"; then ok; else bad "out/ does not compile with a kernel's flags"; fi
for compiler in cc clang; do
	command -v $compiler >/dev/null || continue
	# shellcheck disable=SC2086
	$compiler $KFLAGS -c tests/rule_tests.c -o "$T/rule_tests.$compiler.o" 2>/dev/null || continue
	ld -r "$T/copy_rule.o" "$T/rule_tests.$compiler.o" "$T/copy.o" -o "$T/all.o"
	extra=$(nm -u "$T/all.o" | awk '{print $2}' | while read -r s; do
		case " $ALLOWED " in *" $s "*) ;; *) echo "$s" ;; esac
	done)
	if [ -z "$extra" ]; then ok; else bad "out/ built with $compiler leaves undefined: $extra"; fi
done
if ld -nostdlib -static -e uc_rule_init -Ttext=0xffffffff81000000 "$T/copy_rule.o" "$T/copy.o" -o "$T/kernel.elf" &&
	readelf -h "$T/kernel.elf" | grep -q 'Type: *EXEC'; then ok; else bad "the routines and rule table do not link alone"; fi

# The rule table needs no header at all: it builds under -nostdinc, as a
# kernel without the compiler's headers on its include path builds it; a
# header that includes one must fail this (the negative control below).
for compiler in cc clang; do
	command -v $compiler >/dev/null || continue
	# shellcheck disable=SC2086
	check "copy_rule.c builds under -nostdinc ($compiler)" $compiler $KFLAGS -nostdinc -c copy_rule.c -o "$T/nostdinc.o"
done
printf '#include <stddef.h>\n' | cat - copy_rule.h >"$T/with_include.h"
printf '#include "with_include.h"\n' >"$T/uses.c"
# shellcheck disable=SC2086
check "negative control: a header that includes <stddef.h> fails under -nostdinc" sh -c \
	"! cc $KFLAGS -nostdinc -I'$T' -c '$T/uses.c' -o '$T/uses.o' 2>/dev/null"
# Two prefixes that differ only in case get two header guards, but the same
# macros (the prefix in upper case): the second header included is entered,
# its guard being its own, and stops the build with an #error that says
# why. Two prefixes that differ otherwise are included together, without a
# warning, both declaring their routines.
"$ROOT/gen/uarchgen" gen -q --prefix kc_ --db "$ROOT/uarch.db" --templates "$ROOT/templates" --out "$T/lower"
"$ROOT/gen/uarchgen" gen -q --prefix KC_ --db "$ROOT/uarch.db" --templates "$ROOT/templates" --out "$T/upper"
"$ROOT/gen/uarchgen" gen -q --prefix xc_ --db "$ROOT/uarch.db" --templates "$ROOT/templates" --out "$T/other"
printf '#include "%s"\n#include "%s"\nvoid *(*f[2])(void *, const void *, KC_size_t) = {kc_memcpy, KC_memcpy};\n' \
	"$T/lower/$FLAVOR/copy_rule.h" "$T/upper/$FLAVOR/copy_rule.h" >"$T/both.c"
check "headers of prefixes kc_ and KC_ together stop at an #error naming the clash" sh -c \
	"! cc -std=c99 -c '$T/both.c' -o '$T/both.o' 2>'$T/both.err' &&
	 grep -q '#error .*KC_COPY_RULE_STAMP is defined already.*differs from KC_ only in case' '$T/both.err'"
printf '#include "%s"\n#include "%s"\nvoid *(*f[2])(void *, const void *, kc_size_t) = {kc_memcpy, xc_memcpy};\n' \
	"$T/lower/$FLAVOR/copy_rule.h" "$T/other/$FLAVOR/copy_rule.h" >"$T/two.c"
check "headers of prefixes kc_ and xc_ can be included together" \
	cc -std=c99 -Wall -Wextra -Werror -c "$T/two.c" -o "$T/two.o"

# The negative control: an object that needs a libc function must fail the same link.
printf 'int printf(const char *, ...);\nvoid f(void) { printf("x"); }\n' >"$T/needs_libc.c"
# shellcheck disable=SC2086
cc $KFLAGS -Wno-error -c "$T/needs_libc.c" -o "$T/needs_libc.o"
if ld -nostdlib -static -e uc_rule_init -Ttext=0xffffffff81000000 "$T/copy_rule.o" "$T/copy.o" "$T/needs_libc.o" \
	-o "$T/bad.elf" 2>/dev/null; then bad "the link check accepted an undefined printf"; else ok; fi

summary
