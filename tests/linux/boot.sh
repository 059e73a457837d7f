#!/bin/sh
# make check-linux: Linux's form of the routines running in Debian's own
# kernel. Builds the test module (gen --linux, build_module.sh) and uctest.c
# (static), packs them with busybox-static into an initramfs whose init
# loads the module and runs the test, and boots /boot/vmlinuz-VERSION
# (kernel_version.sh) in QEMU (TCG) as an AMD and an Intel CPU model: each
# boot must log the rule the module installed, print uctest's "N passed,
# 0 failed", and show no oops, BUG, WARN ("cut here") or panic, within the
# timeout. The control, zen2's copy_to_user without its exception entries,
# must oops on EPYC-Rome.
# usage: tests/linux/boot.sh [CPU_MODEL...]   (default EPYC-Rome Skylake-Client)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/lib.sh"
L=tests/linux
CPUS=${*:-EPYC-Rome Skylake-Client}
QEMU=${QEMU:-qemu-system-x86_64}
BUSYBOX=${BUSYBOX:-/bin/busybox}
v=$($L/kernel_version.sh) || exit 2
for need in "$QEMU" "$BUSYBOX"; do
	command -v "$need" >/dev/null || { echo "boot.sh: $need is missing (make deps)" >&2; exit 2; }
done

# initrd GEN NAME: the module built from GEN and uctest, with busybox, as
# $T/NAME.initrd.
initrd() {
	$L/build_module.sh "$1" "$T/$2.mod" || { sed 's/^/    /' "$T/$2.mod/build.log" | tail -5; return 1; }
	R=$T/$2.root
	mkdir -p "$R/bin" "$R/dev" "$R/proc" || return 1
	cc -static -O2 -Wall -Wextra -Werror -I"$1/kernel" -I$L/module $L/uctest.c -o "$R/uctest" || return 1
	cp "$BUSYBOX" "$R/bin/busybox" && cp "$T/$2.mod/uarchcopy_test.ko" "$R/" || return 1
	cat >"$R/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox mount -t devtmpfs dev /dev
/bin/busybox mount -t proc proc /proc
if /bin/busybox insmod /uarchcopy_test.ko; then /uctest; echo "uctest exit $?"; fi
/bin/busybox dmesg | /bin/busybox grep uarchcopy:
/bin/busybox poweroff -f
INIT
	chmod +x "$R/init"
	(cd "$R" && find . | "$BUSYBOX" cpio -o -H newc 2>/dev/null) | gzip -1 >"$T/$2.initrd"
}

# boot CPU NAME: boots $T/NAME.initrd as CPU; prints why it failed, if it did.
boot() {
	start=$(date +%s)
	timeout 300 "$QEMU" -accel tcg -cpu "$1" -m 512 -nographic -no-reboot -kernel "/boot/vmlinuz-$v" \
		-initrd "$T/$2.initrd" -append "console=ttyS0 quiet panic=-1 oops=panic" >"$T/$2.$1.log" 2>&1
	rc=$?
	tr -d '\r' <"$T/$2.$1.log" >"$T/log.txt"
	echo "$1 ($2): booted in $(( $(date +%s) - start )) s; $(grep -m1 'uarchcopy: ' "$T/log.txt" | sed 's/.*uarchcopy: //')"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$T/log.txt" | tail -1)
	if [ $rc -eq 124 ]; then
		echo "no end within 300 s"
	elif grep -qE "$COMPLAINT" "$T/log.txt"; then
		echo "the kernel complained:"
		grep -m3 -E "$COMPLAINT" "$T/log.txt" | sed 's/^/    /'
	elif ! grep -q '^uctest exit 0$' "$T/log.txt" || [ -z "$line" ]; then
		echo "uctest failed (${line:-no summary})"
		grep -E '^FAIL|insmod|uctest' "$T/log.txt" | head -10 | sed 's/^/    /'
	else
		echo "uctest: $line"
		return 0
	fi
	return 1
}
COMPLAINT='Oops|BUG:|WARNING: CPU|cut here|Kernel panic|general protection|Call Trace'

gen/uarchgen gen -q --linux --out "$T/gen" && initrd "$T/gen" good || { bad "the test's initramfs"; summary; exit; }
for cpu in $CPUS; do
	if boot "$cpu" good >"$T/out" 2>&1; then ok; cat "$T/out"; else bad "$cpu"; cat "$T/out"; fi
done
# The control: zen2's copy_to_user without its exception entries must oops
# on EPYC-Rome (a Zen 2), where uc_rule_init installs zen2's routines.
cp -r "$T/gen" "$T/control" &&
	awk '/_ASM_EXTABLE_UA/ && /copy_to_user_zen2_fault/ { next } { print }' "$T/gen/kernel/x86_64/copy_linux.S" \
		>"$T/control/kernel/x86_64/copy_linux.S" && initrd "$T/control" control || bad "the control's initramfs"
if boot EPYC-Rome control >"$T/out" 2>&1; then
	bad "control: zen2's copy_to_user without its entries passed"; cat "$T/out"
elif grep -q "complained" "$T/out"; then
	ok; echo "control: $(grep -m1 'BUG:\|Oops' "$T/out" | sed 's/^ *//')"
else
	bad "control: no oops"; cat "$T/out"
fi
summary
