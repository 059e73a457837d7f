#!/bin/sh
# make check-linux-tree: Linux itself on the generated copies. gen --linux's
# linux/uarchcopy.patch goes into Debian's linux-source-6.1, which builds
# (tree_build.sh, cached in build/linux) with objtool and IBT: memcpy,
# __memcpy and the user copies behind raw_copy_{to,from}_user are the
# generated routines, patched once at boot by uarchcopy_init.c. Checks:
#   - no warning in the build: objtool's, with --ibt and --noinstr on
#     vmlinux.o;
#   - memcpy and __memcpy are uc_memcpy, _copy_to_user and _copy_from_user
#     call the user copies, and every entry starts with ENDBR;
#   - booted in QEMU (TCG, two CPUs) as EPYC-Rome, EPYC-Milan and
#     Skylake-Client: the log names the routines installed (zen2, zen3,
#     baseline), the second CPU comes up (after the patching),
#     lib/test_user_copy.ko says "tests passed", the userland check
#     (userland.c: pipes, tmpfs read/write/pread, at page offsets 0, 16, 31,
#     64 and 4080, 1 B to 1 MiB, and EFAULT from unmapped pages) ends
#     "N passed, 0 failed", and the kernel shows no oops, BUG, WARN or panic.
# Negative controls, each a defect in a copy of the patch, built in the same
# tree: copy_to_user's rep movsb without its exception entry must oops in
# the userland check on Skylake-Client (the baseline runs it); an entry that
# keeps a bare ret must make objtool warn, and so must the copies in .text,
# where noinstr code may not call memcpy, and the patch list pointing at
# memcpy's site past its ENDBR (IBT). The tree then holds the last
# control, which the next run's build replaces.
# usage: tests/linux/tree.sh [CPU_MODEL:ROUTINES...]
#   (default EPYC-Rome:zen2 EPYC-Milan:zen3 Skylake-Client:baseline)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/lib.sh"
L=tests/linux
B=$ROOT/build/linux
O=$B/obj
CPUS=${*:-EPYC-Rome:zen2 EPYC-Milan:zen3 Skylake-Client:baseline}
QEMU=${QEMU:-qemu-system-x86_64}
BUSYBOX=${BUSYBOX:-/bin/busybox}
for need in "$QEMU" "$BUSYBOX" objdump nm; do
	command -v "$need" >/dev/null || { echo "tree.sh: $need is missing (make deps)" >&2; exit 2; }
done
COMPLAINT='Oops|BUG:|WARNING: CPU|cut here|Kernel panic|general protection|Call Trace'
begin=$(date +%s)

# build PATCH NAME: the tree on PATCH, its bzImage kept as $T/NAME.bzImage.
build() {
	start=$(date +%s)
	$L/tree_build.sh "$1" || return 1
	cp "$O/arch/x86/boot/bzImage" "$T/$2.bzImage" || return 1
	echo "$2: built in $(($(date +%s) - start)) s"
}

# initrd: test_user_copy.ko, the userland check and busybox, as $T/initrd.
initrd() {
	R=$T/root
	mkdir -p "$R/bin" "$R/dev" "$R/proc" "$R/tmp" || return 1
	cc -static -O2 -Wall -Wextra -Werror $L/userland.c -o "$R/userland" || return 1
	cp "$BUSYBOX" "$R/bin/busybox" && cp "$O/lib/test_user_copy.ko" "$R/" || return 1
	# The lines the checks read start on a line of their own: the
	# firmware's escape codes come before the first.
	cat >"$R/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox mount -t devtmpfs dev /dev
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t tmpfs tmp /tmp
echo
/bin/busybox insmod /test_user_copy.ko; echo "insmod exit $?"
/userland /tmp; echo "userland exit $?"
/bin/busybox dmesg | /bin/busybox grep -E 'uarchcopy|test_user_copy|smp: Brought up'
/bin/busybox reboot -f
INIT
	chmod +x "$R/init"
	(cd "$R" && find . | "$BUSYBOX" cpio -o -H newc 2>/dev/null) | gzip -1 >"$T/initrd"
}

# boot KERNEL CPU: boots $T/KERNEL.bzImage as CPU, the log in $T/KERNEL.CPU.log.
boot() {
	timeout 600 "$QEMU" -accel tcg -cpu "$2" -smp 2 -m 512 -nographic -no-reboot -kernel "$T/$1.bzImage" \
		-initrd "$T/initrd" -append "console=ttyS0 quiet panic=-1 oops=panic" 2>&1 | tr -d '\r' >"$T/$1.$2.log"
}

# judge CPU ROUTINES: the good kernel's boot as CPU ran ROUTINES and passed.
judge() {
	log=$T/good.$1.log
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
	echo "$1: $(grep -m1 'uarchcopy: routines' "$log" | sed 's/.*uarchcopy: //' | cut -c1-60)...; userland: ${line:-none}"
	if grep -qE "$COMPLAINT" "$log"; then
		echo "the kernel complained:"; grep -m5 -E "$COMPLAINT" "$log" | sed 's/^/    /'; return 1
	fi
	grep -q "uarchcopy: routines $2;" "$log" || { echo "not the routines $2"; return 1; }
	grep -q 'smp: Brought up .* 2 CPUs' "$log" || { echo "not two CPUs up"; return 1; }
	[ "$(grep -n 'uarchcopy: routines' "$log" | head -1 | cut -d: -f1)" -lt \
		"$(grep -n 'smp: Brought up' "$log" | head -1 | cut -d: -f1)" ] ||
		{ echo "the rule was installed after the second CPU came up"; return 1; }
	grep -q 'test_user_copy: tests passed' "$log" && grep -q '^insmod exit 0$' "$log" ||
		{ echo "test_user_copy did not pass"; grep -E 'test_user_copy|insmod' "$log" | head -5; return 1; }
	grep -q '^userland exit 0$' "$log" && [ -n "$line" ] ||
		{ echo "the userland check failed"; grep '^FAIL' "$log" | head -5; return 1; }
}

# The build's objtool and compiler warnings; true when there are none.
no_warnings() { ! grep -i 'warning' "$B/build.log"; }
# objtool validated vmlinux.o for IBT and noinstr, with the return thunk,
# SLS and uaccess (Kbuild's command line of that step).
ibt_validated() {
	for flag in --ibt --noinstr --rethunk --sls --uaccess; do
		grep -q -- "objtool .*$flag" "$O/.vmlinux.o.cmd" || { echo "no objtool $flag"; return 1; }
	done
}
# same_address A B: vmlinux's symbols A and B are one address.
same_address() {
	a=$(nm "$O/vmlinux" | awk -v s="$1" '$3 == s { print $1 }')
	b=$(nm "$O/vmlinux" | awk -v s="$2" '$3 == s { print $1 }')
	[ -n "$a" ] && [ "$a" = "$b" ] || { echo "$1 at '$a', $2 at '$b'"; return 1; }
}
# calls FUNCTION TARGET: vmlinux's FUNCTION calls TARGET.
calls() { objdump -d --no-show-raw-insn "$O/vmlinux" | awk -v f="<$1>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' |
	grep -q "call.*<$2>"; }
# starts_with_endbr FUNCTION: its first instruction is endbr64 (by address:
# objdump may name it by an alias, memcpy for uc_memcpy).
starts_with_endbr() {
	at=$(nm "$O/vmlinux" | awk -v s="$1" '$3 == s { print $1 }')
	[ -n "$at" ] && objdump -d --no-show-raw-insn --start-address=0x"$at" "$O/vmlinux" |
		awk '/^ *[0-9a-f]+:/ { print; exit }' | grep -q endbr64
}

gen/uarchgen gen -q --linux --out "$T/gen" || { bad "gen --linux"; summary; exit; }
P=$T/gen/linux/uarchcopy.patch
if ! build "$P" good; then
	bad "Linux on the generated copies builds"
	summary
	exit
fi
ok
check "no warning in the build (objtool, the compiler)" no_warnings
check "objtool validated IBT and noinstr (--ibt --noinstr on vmlinux.o)" ibt_validated
check "memcpy is uc_memcpy" same_address memcpy uc_memcpy
check "__memcpy is uc_memcpy" same_address __memcpy uc_memcpy
check "_copy_to_user calls uc_copy_to_user" calls _copy_to_user uc_copy_to_user
check "_copy_from_user calls uc_copy_from_user" calls _copy_from_user uc_copy_from_user
for f in uc_memcpy uc_copy_to_user uc_copy_from_user; do
	check "$f starts with ENDBR" starts_with_endbr $f
done
initrd || { bad "the test's initramfs"; summary; exit; }
for pair in $CPUS; do
	cpu=${pair%%:*}
	start=$(date +%s)
	boot good "$cpu"
	if judge "$cpu" "${pair#*:}" >"$T/out" 2>&1; then ok; else bad "$cpu"; fi
	echo "$(cat "$T/out") ($(($(date +%s) - start)) s)"
done

# control NAME SED: a copy of the patch with one line changed by SED.
control() {
	sed "$2" "$P" >"$T/$1.patch" || return 1
	[ "$(diff "$P" "$T/$1.patch" | grep -c '^>')" -eq 1 ] || { echo "control $1: not one line changed"; return 1; }
}
# The entry's own exception entry: the baseline's rep movsb, which a core
# without a measured table (Skylake-Client) runs; the compiled routines,
# laid out before it, have fixups of their own.
if control no_entry 's|^+\( *\)_ASM_EXTABLE_UA(\.Luc_uaccess_[0-9]*, uc_copy_to_user_fault)$|+\1/* no entry */|' &&
	build "$T/no_entry.patch" no_entry; then
	boot no_entry Skylake-Client
	if grep -qE 'BUG:|Oops' "$T/no_entry.Skylake-Client.log"; then
		ok; echo "control: $(grep -m1 -E 'BUG:|Oops' "$T/no_entry.Skylake-Client.log")"
	else
		bad "control: copy_to_user without its exception entry did not oops"
		tail -5 "$T/no_entry.Skylake-Client.log"
	fi
else bad "control: copy_to_user without its exception entry does not build"; fi
if control bare_ret '0,/^+        RET$/s//+        ret/' && build "$T/bare_ret.patch" bare_ret; then
	check "control: a bare ret makes objtool warn" grep "warning: objtool: .*'naked' return found in RETHUNK build" \
		"$B/build.log" && echo "control: $(tail -1 "$T/log")"
else bad "control: a bare ret does not build"; fi
if control in_text 's|^+\( *\)\.section \.noinstr\.text, "ax"$|+\1.text|' && build "$T/in_text.patch" in_text; then
	check "control: the copies in .text make objtool's noinstr validation warn" \
		grep "warning: objtool: .*call to __memcpy() leaves .noinstr.text section" "$B/build.log" &&
		echo "control: $(tail -1 "$T/log")"
else bad "control: the copies in .text do not build"; fi
if control past_endbr 's|^+\( *\)\.quad   uc_memcpy$|+\1.quad   uc_memcpy.site|' && build "$T/past_endbr.patch" past_endbr; then
	check "control: data pointing past an ENDBR makes objtool --ibt warn" \
		grep "warning: objtool: .*data relocation to !ENDBR" "$B/build.log" && echo "control: $(tail -1 "$T/log")"
else bad "control: data pointing past an ENDBR does not build"; fi
echo "make check-linux-tree: $(($(date +%s) - begin)) s"
summary
