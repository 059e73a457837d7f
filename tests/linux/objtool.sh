#!/bin/sh
# Linux's form of the routines (gen --linux) builds as an out-of-tree
# module against Debian's installed headers (kernel_version.sh), with the
# kernel's flags and objtool as that kernel's configuration runs it
# (--rethunk, --sls, --uaccess, --orc, ...): no warning at all in the build
# log, objtool's or modpost's; every user access has its exception entry
# (extable_check.sh); and its .text is the GAS form's program
# (text_identity.sh). Negative controls, each a defect in a copy of the
# generated file, must each be caught: a bare ret (objtool: 'naked' return
# in a RETHUNK build), a call between ASM_STAC and ASM_CLAC (objtool: call
# with UACCESS enabled), a user access without its entry (extable_check.sh)
# and one instruction changed (text_identity.sh). gen --linux refuses
# --user-copy-result status and --memcpy-symbol (exit 2).
# usage: tests/linux/objtool.sh
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/lib.sh"
L=tests/linux

# warnings LOG: prints the build's warning lines; true when there are none.
warnings() { ! grep -i 'warning' "$1"; }

if ! gen/uarchgen gen -q --linux --out "$T/gen"; then
	bad "gen --linux"
	summary
	exit
fi
S=$T/gen/kernel/x86_64/copy_linux.S
check "module builds" $L/build_module.sh "$T/gen" "$T/b"
check "no warning (objtool, modpost)" warnings "$T/b/build.log"
echo "build warnings: $(grep -ci warning "$T/b/build.log")"
check "an entry for each user access" $L/extable_check.sh "$T/b/copy_linux.o" && tail -1 "$T/log"
check "GAS's instructions" $L/text_identity.sh "$T/gen/kernel/x86_64/copy.S" "$T/b/copy_linux.o" &&
	tail -1 "$T/log"
check "--linux refuses the status result" sh -c \
	'gen/uarchgen gen -q --linux --user-copy-result status --out "$1/no" 2>/dev/null; [ $? -eq 2 ] && [ ! -e "$1/no" ]' \
	sh "$T"
check "--linux refuses a strong memcpy" sh -c \
	'gen/uarchgen gen -q --linux --memcpy-symbol --out "$1/no" 2>/dev/null; [ $? -eq 2 ] && [ ! -e "$1/no" ]' \
	sh "$T"

# control NAME SED|AWK PROGRAM: a copy of the generated tree with the
# program applied to copy_linux.S, into $T/NAME, built into $T/NAME/b;
# fails if the program changed nothing.
control() {
	rm -rf "$T/$1" && cp -r "$T/gen" "$T/$1" || return 1
	"$2" "$3" "$S" >"$T/$1/kernel/x86_64/copy_linux.S" || return 1
	! cmp -s "$S" "$T/$1/kernel/x86_64/copy_linux.S" || { echo "control $1: nothing changed"; return 1; }
	$L/build_module.sh "$T/$1" "$T/$1/b"
	return 0
}
# objtool_says NAME TEXT: the control's build log has an objtool warning with TEXT.
objtool_says() { grep "warning: objtool: .*$2" "$T/$1/b/build.log"; }
# refused CHECKER ARGS...: the checker fails.
refused() { ! "$@"; }

if control bare_ret sed '0,/^\( *\)RET$/s//\1ret/'; then
	check "control: a bare ret" objtool_says bare_ret "'naked' return found in RETHUNK build"
else bad "control: a bare ret does not apply"; fi
if control call_in_uaccess awk '!d && /ASM_STAC/ { print; print "        call    uc_copy_forward"; d = 1; next } { print }'; then
	check "control: a call with AC set" objtool_says call_in_uaccess "call to uc_copy_forward() with UACCESS enabled"
else bad "control: a call with AC set does not apply"; fi
if control no_entry awk '/_ASM_EXTABLE_UA/ && ++n == 5 { next } { print }'; then
	check "control: a user access without its entry" refused $L/extable_check.sh "$T/no_entry/b/copy_linux.o"
else bad "control: a user access without its entry does not apply"; fi
if control changed sed '0,/^\( *\)sub     rcx, 8 /s//\1sub     rcx, 16 /'; then
	check "control: one instruction changed" refused $L/text_identity.sh "$T/gen/kernel/x86_64/copy.S" \
		"$T/changed/b/copy_linux.o"
else bad "control: one instruction changed does not apply"; fi
summary
