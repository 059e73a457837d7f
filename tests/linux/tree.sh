#!/bin/sh
# make check-linux-tree: Linux itself on the generated copies, in two trees,
# Debian's linux-source-6.1 and linux-source-6.12. gen --linux
# --linux-version V's linux/uarchcopy.patch goes into tree V, which builds
# (tree_build.sh, cached in build/linux-V) with objtool and IBT: memcpy,
# __memcpy and the user copies behind raw_copy_{to,from}_user (6.12:
# copy_user_generic, its inline rep movsb site included) are the generated
# routines, patched once at boot by uarchcopy_init.c. Checks, in each tree:
#   - no warning in the build: objtool's, with --ibt and --noinstr on
#     vmlinux.o;
#   - memcpy and __memcpy are uc_memcpy, _copy_to_user and _copy_from_user
#     call the user copies, and every entry starts with ENDBR; in 6.12 the
#     entries' baseline is Linux's own choice: uc_memcpy jumps to
#     memcpy_orig and the user copies call rep_movs_alternative where the
#     CPU lacks FSRM (alternatives make them rep movsb where it has it);
#   - booted in QEMU (TCG, two CPUs) as EPYC-Rome, EPYC-Milan and
#     Skylake-Client: the log names the routines installed (zen2, zen3,
#     baseline), the second CPU comes up (after the patching), Linux's
#     user-copy tests pass (6.1: lib/test_user_copy.ko says "tests passed";
#     6.12: KUnit's usercopy suite, lib/usercopy_kunit.ko, reports "ok"),
#     the userland check (userland.c: pipes, tmpfs read/write/pread, at page
#     offsets 0, 16, 31, 64 and 4080, 1 B to 1 MiB, and EFAULT from unmapped
#     pages) ends "N passed, 0 failed", and the kernel shows no oops, BUG,
#     WARN or panic.
# Negative controls, each a defect in a copy of the patch, built in the same
# tree: user copies without their exception entries must oops in the
# userland check (6.1: the baseline's rep movsb, run on Skylake-Client;
# 6.12: zen3's copy_to_user, run on EPYC-Milan, since QEMU's TCG offers no
# FSRM and so never runs the baseline's rep movsb there); an entry that
# keeps a bare ret must make objtool warn, and so must the copies in .text,
# where noinstr code may not call memcpy, and the patch list pointing at
# memcpy's site past its ENDBR (IBT). Each tree then holds its last
# control, which the next run's build replaces.
# usage: tests/linux/tree.sh [CPU_MODEL:ROUTINES...]
#   (default EPYC-Rome:zen2 EPYC-Milan:zen3 Skylake-Client:baseline);
#   LINUX_VERSIONS="6.12" tests one tree (default "6.1 6.12")
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/lib.sh"
L=tests/linux
VERSIONS=${LINUX_VERSIONS:-6.1 6.12}
CPUS=${*:-EPYC-Rome:zen2 EPYC-Milan:zen3 Skylake-Client:baseline}
QEMU=${QEMU:-qemu-system-x86_64}
BUSYBOX=${BUSYBOX:-/bin/busybox}
for need in "$QEMU" "$BUSYBOX" objdump nm; do
	command -v "$need" >/dev/null || { echo "tree.sh: $need is missing (make deps)" >&2; exit 2; }
done
COMPLAINT='Oops|BUG:|WARNING: CPU|cut here|Kernel panic|general protection|Call Trace'
begin=$(date +%s)

# build PATCH NAME: tree $V on PATCH, its bzImage kept as $T/NAME.bzImage.
build() {
	start=$(date +%s)
	$L/tree_build.sh "$V" "$1" || return 1
	cp "$O/arch/x86/boot/bzImage" "$T/$2.bzImage" || return 1
	echo "$2: built in $(($(date +%s) - start)) s"
}

# The module of Linux's own user-copy tests in tree $V.
user_copy_module() { case $V in 6.1) echo lib/test_user_copy.ko ;; *) echo lib/usercopy_kunit.ko ;; esac; }

# initrd: Linux's user-copy tests, the userland check and busybox, as
# $T/$V.initrd.
initrd() {
	R=$T/root-$V
	mkdir -p "$R/bin" "$R/dev" "$R/proc" "$R/tmp" || return 1
	cc -static -O2 -Wall -Wextra -Werror $L/userland.c -o "$R/userland" || return 1
	cp "$BUSYBOX" "$R/bin/busybox" && cp "$O/$(user_copy_module)" "$R/user_copy_test.ko" || return 1
	# The lines the checks read start on a line of their own: the
	# firmware's escape codes come before the first.
	cat >"$R/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox mount -t devtmpfs dev /dev
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t tmpfs tmp /tmp
echo
/bin/busybox insmod /user_copy_test.ko; echo "insmod exit $?"
/userland /tmp; echo "userland exit $?"
/bin/busybox dmesg | /bin/busybox grep -E 'uarchcopy|test_user_copy|usercopy|smp: Brought up'
/bin/busybox reboot -f
INIT
	chmod +x "$R/init"
	(cd "$R" && find . | "$BUSYBOX" cpio -o -H newc 2>/dev/null) | gzip -1 >"$T/$V.initrd"
}

# boot KERNEL CPU: boots $T/KERNEL.bzImage as CPU, the log in $T/KERNEL.CPU.log.
boot() {
	timeout 600 "$QEMU" -accel tcg -cpu "$2" -smp 2 -m 512 -nographic -no-reboot -kernel "$T/$1.bzImage" \
		-initrd "$T/$V.initrd" -append "console=ttyS0 quiet panic=-1 oops=panic" 2>&1 | tr -d '\r' >"$T/$1.$2.log"
}

# user_copy_tests_passed LOG: Linux's own user-copy tests passed in LOG.
user_copy_tests_passed() {
	case $V in
	6.1) grep -q 'test_user_copy: tests passed' "$1" ;;
	*) grep -qE '^ *ok [0-9]+ usercopy$' "$1" && ! grep -qE '^ *not ok .*usercopy' "$1" ;;
	esac && grep -q '^insmod exit 0$' "$1"
}

# judge CPU ROUTINES: the good kernel's boot as CPU ran ROUTINES and passed.
judge() {
	log=$T/good-$V.$1.log
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
	echo "$V $1: $(grep -m1 'uarchcopy: routines' "$log" | sed 's/.*uarchcopy: //' | cut -c1-60)...; userland: ${line:-none}"
	if grep -qE "$COMPLAINT" "$log"; then
		echo "the kernel complained:"; grep -m5 -E "$COMPLAINT" "$log" | sed 's/^/    /'; return 1
	fi
	grep -q "uarchcopy: routines $2;" "$log" || { echo "not the routines $2"; return 1; }
	grep -q 'smp: Brought up .* 2 CPUs' "$log" || { echo "not two CPUs up"; return 1; }
	[ "$(grep -n 'uarchcopy: routines' "$log" | head -1 | cut -d: -f1)" -lt \
		"$(grep -n 'smp: Brought up' "$log" | head -1 | cut -d: -f1)" ] ||
		{ echo "the rule was installed after the second CPU came up"; return 1; }
	user_copy_tests_passed "$log" ||
		{ echo "Linux's user-copy tests did not pass"; grep -E 'user_copy|usercopy|insmod' "$log" | head -5; return 1; }
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
# disassembly FUNCTION: vmlinux's FUNCTION, as built (before alternatives),
# by its address and size: objdump names it by any of its aliases, and
# starts a paragraph at each label inside it. The kernel's text lies in
# the top 2 GiB (-mcmodel=kernel), 0xffffffff8..., past what the shell's
# arithmetic holds: its end is reckoned on the low 32 bits.
disassembly() {
	nm -S "$O/vmlinux" | awk -v s="$1" '$4 == s { print $1, $2; exit }' | {
		read -r at size && [ "${at#ffffffff}" != "$at" ] &&
			objdump -d --no-show-raw-insn --start-address=0x"$at" \
				--stop-address=0xffffffff"$(printf %08x $((0x${at#ffffffff} + 0x$size)))" "$O/vmlinux"
	}
}
# calls FUNCTION TARGET: vmlinux's FUNCTION calls TARGET.
calls() { disassembly "$1" | grep -q "call.*<$2>"; }
# jumps FUNCTION TARGET: vmlinux's FUNCTION jumps to TARGET.
jumps() { disassembly "$1" | grep -q "jmp.*<$2>"; }
# starts_with_endbr FUNCTION: its first instruction is endbr64 (by address:
# objdump may name it by an alias, memcpy for uc_memcpy).
starts_with_endbr() {
	at=$(nm "$O/vmlinux" | awk -v s="$1" '$3 == s { print $1 }')
	[ -n "$at" ] && objdump -d --no-show-raw-insn --start-address=0x"$at" "$O/vmlinux" |
		awk '/^ *[0-9a-f]+:/ { print; exit }' | grep -q endbr64
}

# built_checks: what the good build of tree $V must show.
built_checks() {
	check "$V: no warning in the build (objtool, the compiler)" no_warnings
	check "$V: objtool validated IBT and noinstr (--ibt --noinstr on vmlinux.o)" ibt_validated
	check "$V: memcpy is uc_memcpy" same_address memcpy uc_memcpy
	check "$V: __memcpy is uc_memcpy" same_address __memcpy uc_memcpy
	check "$V: _copy_to_user calls uc_copy_to_user" calls _copy_to_user uc_copy_to_user
	check "$V: _copy_from_user calls uc_copy_from_user" calls _copy_from_user uc_copy_from_user
	for f in uc_memcpy uc_copy_to_user uc_copy_from_user; do
		check "$V: $f starts with ENDBR" starts_with_endbr $f
	done
	[ "$V" = 6.1 ] && return
	check "$V: the baseline of uc_memcpy is Linux's: memcpy_orig without FSRM" jumps uc_memcpy memcpy_orig
	for f in uc_copy_to_user uc_copy_from_user; do
		check "$V: the baseline of $f is Linux's: rep_movs_alternative without FSRM" calls $f rep_movs_alternative
	done
}

# control NAME SED: a copy of the patch with one line changed by SED.
control() {
	sed "$2" "$P" >"$T/$1.patch" || return 1
	[ "$(diff "$P" "$T/$1.patch" | grep -c '^>')" -eq 1 ] || { echo "control $1: not one line changed"; return 1; }
}

# oops_control CPU: the user copies without exception entries
# ($T/no_entry.patch, built) oops when booted as CPU.
oops_control() {
	if build "$T/no_entry.patch" "no_entry-$V"; then
		boot "no_entry-$V" "$1"
		if grep -qE 'BUG:|Oops' "$T/no_entry-$V.$1.log"; then
			ok; echo "$V control: $(grep -m1 -E 'BUG:|Oops' "$T/no_entry-$V.$1.log")"
		else
			bad "$V control: the user copies without their exception entries did not oops"
			tail -5 "$T/no_entry-$V.$1.log"
		fi
	else bad "$V control: the user copies without their exception entries do not build"; fi
}

# objtool_control NAME SED WARNING WHAT: the patch changed by SED builds
# and objtool warns WARNING (a regular expression).
objtool_control() {
	if control "$1" "$2" && build "$T/$1.patch" "$1-$V"; then
		check "$V control: $4 makes objtool warn" grep "warning: objtool: .*$3" "$B/build.log" &&
			echo "$V control: $(tail -1 "$T/log")"
	else bad "$V control: $4 does not build"; fi
}

# controls: the negative controls in tree $V.
controls() {
	if [ "$V" = 6.1 ]; then
		# The baseline's rep movsb, which a core without a measured
		# table (Skylake-Client) runs; the compiled routines, laid out
		# before it, have fixups of their own.
		control no_entry 's|^+\( *\)_ASM_EXTABLE_UA(\.Luc_uaccess_[0-9]*, uc_copy_to_user_fault)$|+\1/* no entry */|' &&
			oops_control Skylake-Client
	else
		# zen3's copy_to_user, every entry of it: under TCG the
		# baseline's rep movsb never runs (no FSRM). A line for a line,
		# so that the hunk keeps its count.
		sed 's|^+\( *\)_ASM_EXTABLE_UA(\.Luc_uaccess_[0-9]*, uc_copy_to_user_zen3_fault)$|+\1/* no entry */|' \
			"$P" >"$T/no_entry.patch" &&
			[ "$(diff "$P" "$T/no_entry.patch" | grep -c '^>')" -gt 1 ] && oops_control EPYC-Milan
	fi
	objtool_control bare_ret '0,/^+        RET$/s//+        ret/' "'naked' return found in .*RETHUNK build" "a bare ret"
	objtool_control in_text 's|^+\(  *\)\.section \.noinstr\.text, "ax"$|+\1.text|' \
		"call to __memcpy() leaves .noinstr.text section" "the copies in .text"
	objtool_control past_endbr 's|^+\( *\)\.quad   uc_memcpy$|+\1.quad   uc_memcpy.site|' \
		"data relocation to !ENDBR" "data pointing past an ENDBR (IBT)"
}

# tree: tree $V, built on the generated patch, checked, booted, controlled.
tree() {
	B=$ROOT/build/linux-$V
	O=$B/obj
	gen/uarchgen gen -q --linux-version "$V" --out "$T/gen-$V" || { bad "$V: gen --linux-version $V"; return; }
	P=$T/gen-$V/linux/uarchcopy.patch
	build "$P" "good-$V" || { bad "$V: Linux on the generated copies builds"; return; }
	ok
	built_checks
	initrd || { bad "$V: the test's initramfs"; return; }
	for pair in $CPUS; do
		cpu=${pair%%:*}
		start=$(date +%s)
		boot "good-$V" "$cpu"
		if judge "$cpu" "${pair#*:}" >"$T/out" 2>&1; then ok; else bad "$V $cpu"; fi
		echo "$(cat "$T/out") ($(($(date +%s) - start)) s)"
	done
	controls
}

for V in $VERSIONS; do
	tree
done
echo "make check-linux-tree: $(($(date +%s) - begin)) s"
summary
