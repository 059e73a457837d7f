#!/bin/sh
# make check-kernel: builds tests/kernel/ against a copy of out/FLAVOR/ (as
# a user vendors it) with the C compiler alone, from the GAS form of the
# routines (no nasm in this build), boots it on CPU models of both vendors,
# and checks that each boot's logged rule is what `uarchgen lookup` gives for
# the CPUID the machine presented, and that the generated tests and every
# strategy the CPU runs pass in ring 0. QEMU (TCG) boots the models it
# names; a model written bochs:MODEL boots under Bochs, whose Tiger Lake has
# the AVX-512 that QEMU lacks, so that the AVX-512 routines run.
# usage: tests/kernel/run.sh FLAVOR [CPU_MODEL...]   (from the repository root)
set -u
if [ "${1:-}" = "--help" ]; then
	sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/lib.sh"
FLAVOR=${1:?usage: tests/kernel/run.sh FLAVOR [CPU_MODEL...]}
shift
# Bochs's Tiger Lake model has the AVX-512 that QEMU's TCG lacks: it boots
# where the flavor has AVX-512 strategies.
CPUS="EPYC EPYC-Rome EPYC-Milan Skylake-Client qemu64"
grep -q '^#define UC_FLAVOR_ISA "avx512"' "out/$FLAVOR/copy_rule.h" 2>/dev/null && CPUS="$CPUS bochs:tigerlake"
CPUS=${*:-$CPUS}
B=build/test-kernel/$FLAVOR
QEMU=${QEMU:-qemu-system-x86_64}
BOCHS=${BOCHS:-bochs}
need_qemu=0 need_bochs=0
for cpu in $CPUS; do
	case $cpu in
	bochs:*) need_bochs=1 ;;
	*) need_qemu=1 ;;
	esac
done
[ $need_qemu = 0 ] || command -v "$QEMU" >/dev/null ||
	{ echo "check-kernel: $QEMU is missing (make deps installs qemu-system-x86)" >&2; exit 2; }
[ $need_bochs = 0 ] || command -v "$BOCHS" >/dev/null ||
	{ echo "check-kernel: $BOCHS is missing (make deps installs bochs)" >&2; exit 2; }
BOCHS_BIOS=/usr/share/bochs/BIOS-bochs-latest BOCHS_VGA=/usr/share/vgabios/vgabios.bin
for f in $BOCHS_BIOS $BOCHS_VGA; do
	[ $need_bochs = 0 ] || [ -r "$f" ] ||
		{ echo "check-kernel: $f is missing (make deps installs bochsbios and vgabios)" >&2; exit 2; }
done

rm -rf "$B" && mkdir -p "$B/vendor"
cp -r "out/$FLAVOR/." "$B/vendor/" # vendoring: copy the files, nothing else
KFLAGS="-std=c99 -Wall -Wextra -Werror -ffreestanding -nostdlib -mno-red-zone -mgeneral-regs-only -mcmodel=kernel \
-fno-pic -fno-pie -fno-stack-protector -fno-asynchronous-unwind-tables -O2"
# A build that cannot reach nasm: PATH holds only the tools it names.
mkdir -p "$B/bin" && for tool in cc as ld objcopy; do ln -s "$(command -v $tool)" "$B/bin/$tool"; done
# The kernel from the objects of the routines, the rule and the tests: $1
# its name, $2 the groups of generated tests it runs (every group if empty).
build_kernel() {
	groups=${2:+-DRING0_GROUPS=$2}
	# shellcheck disable=SC2086
	PATH=$ROOT/$B/bin /bin/sh -c "cc $KFLAGS -I$B $groups -c tests/kernel/kmain.c -o $B/kmain-$1.o &&
		ld -nostdlib -static --no-warn-rwx-segments -T tests/kernel/kernel.ld -o $B/$1.elf $B/boot.o \
			$B/kmain-$1.o $B/strategies.o $B/copy_rule.o $B/rule_tests.o $B/copy.o"
}
# shellcheck disable=SC2086
if ! PATH=$ROOT/$B/bin /bin/sh -c "cc $KFLAGS -c $B/vendor/copy_rule.c -o $B/copy_rule.o &&
	cc $KFLAGS -c $B/vendor/tests/rule_tests.c -o $B/rule_tests.o &&
	cc $KFLAGS -I$B -c tests/kernel/strategies.c -o $B/strategies.o &&
	cc -c $B/vendor/x86_64/copy.S -o $B/copy.o &&
	cc -c tests/kernel/boot.S -o $B/boot.o" || ! build_kernel kernel "" ||
	! PATH=$ROOT/$B/bin objcopy -O elf32-i386 "$B/kernel.elf" "$B/kernel32.elf"; then
	echo "check-kernel: the kernel does not build from the GAS output" >&2
	exit 1
fi
# QEMU's Multiboot loader takes 32-bit ELF only; the 64-bit code rides inside unchanged.

# Bochs has no Multiboot loader: a disk whose boot sector (bootsect.S) loads
# the kernel flat. That kernel runs only the generated group that caps the
# vector isa (the emulator runs some 50 million instructions a second; QEMU
# runs every group), then every strategy, forced.
if [ $need_bochs = 1 ]; then
	k=$B/kernel-bochs.elf
	if ! build_kernel kernel-bochs '\"isa_cap\"' || ! objcopy -O binary "$k" "$B/kernel-bochs.bin"; then
		echo "check-kernel: the kernel for Bochs does not build" >&2
		exit 1
	fi
	bytes=$(wc -c <"$B/kernel-bochs.bin")
	symbol() { nm "$k" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
	if ! cc -c -DKERNEL_SECTORS=$(((bytes + 511) / 512)) -DKERNEL_BYTES="$bytes" -DKERNEL_END="$(symbol kernel_end)" \
		-DKERNEL_ENTRY="$(symbol _start)" tests/kernel/bootsect.S -o "$B/bootsect.o" ||
		! ld -nostdlib -static -Ttext=0x7c00 -e start16 --oformat binary -o "$B/bootsect.bin" "$B/bootsect.o"; then
		echo "check-kernel: the boot sector does not build" >&2
		exit 1
	fi
	# A flat disk of whole cylinders of 16 heads and 63 sectors.
	cylinder=$((16 * 63 * 512))
	cylinders=$(((512 + bytes + cylinder - 1) / cylinder))
	cat "$B/bootsect.bin" "$B/kernel-bochs.bin" >"$B/disk.img" && truncate -s $((cylinders * cylinder)) "$B/disk.img"
fi

# Boots CPU model $1, COM1 into the file $2; succeeds when the tests passed.
boot_qemu() {
	timeout 600 "$QEMU" -machine pc -accel tcg -cpu "$1" -m 128M -kernel "$B/kernel32.elf" -display none \
		-monitor none -serial "file:$2" -device isa-debug-exit,iobase=0xf4,iosize=0x04 -no-reboot \
		2>"$B/qemu-$1.err"
	[ $? -eq 1 ] && grep -q '^ring 0: [0-9]* passed, 0 failed' "$2"
}
# Debian's Bochs is built with its debugger, which waits for a command
# before the first instruction: "c" continues. The term display needs no
# window; its screen goes to a file.
boot_bochs() {
	model=${1#bochs:}
	rm -f "$2" "$B/disk.img.lock"
	cat >"$B/bochsrc-$model" <<EOF
megs: 64
cpu: model=$model
romimage: file=$BOCHS_BIOS
vgaromimage: file=$BOCHS_VGA
display_library: term
ata0-master: type=disk, path=$B/disk.img, mode=flat, cylinders=$cylinders, heads=16, spt=63
boot: disk
com1: enabled=1, mode=file, dev=$2
port_e9_hack: enabled=1
log: $B/bochs-$model.log
panic: action=fatal
EOF
	echo c >"$B/bochs-continue"
	TERM=xterm timeout 600 "$BOCHS" -q -f "$B/bochsrc-$model" -rc "$B/bochs-continue" </dev/null \
		>"$B/bochs-$model.screen" 2>&1
	grep -q '^ring 0: [0-9]* passed, 0 failed' "$2" || return 1
	# Every strategy of the flavor ran, the vector ones included, with the
	# upper vector state checked after each copy, and the check caught a
	# routine that leaves each kind of it in use (strategies.c's controls).
	[ "$(grep -c '^strategy .*: [0-9]* copies, ok$' "$2")" -eq "$(grep -c '^	X(UC_STRATEGY_[A-Z0-9_]*, "' "$B/vendor/copy_rule.h")" ] &&
		grep -q '^xinuse: checked' "$2" && grep -q '^xinuse control ymm left dirty: caught$' "$2" &&
		grep -q '^xinuse control zmm16 written: caught$' "$2"
}

# A sed script turning each strategy's name into its letter, from the
# catalogue (uarchgen strategies), the longer names first so that forward
# does not match inside avx2_forward.
letters=$(gen/uarchgen strategies | awk '{ print length($2), $2, $3 }' | sort -rn |
	awk '{ printf "s/%s/%s/g; ", $2, $3 }') || exit 2

for cpu in $CPUS; do
	log=$B/boot-$cpu.log
	start=$(date +%s)
	case $cpu in
	bochs:*) boot_bochs "$cpu" "$log" ;;
	*) boot_qemu "$cpu" "$log" ;;
	esac
	rc=$?
	seconds=$(($(date +%s) - start))
	if [ $rc -eq 0 ]; then
		ok
	else
		bad "$cpu: boot failed after ${seconds}s: $(grep -E '^(FAIL|ring 0|vector isa|xinuse|strategy)' "$log" | head -16 | tr '\n' ' ')"
		head -3 "$B/qemu-$cpu.err" 2>/dev/null
	fi
	cpuid=$(sed -n 's/^cpuid: //p' "$log")
	rule=$(grep '^memcpy: ' "$log")
	# shellcheck disable=SC2086
	set -- $cpuid
	vendor=$1 family=$(($3)) model=$(($5))
	# What the generator's own lookup gives this CPU: key=value fields.
	want=$(gen/uarchgen lookup "$vendor" "$family" "$model" --flavor "$FLAVOR") || exit 1
	field() { echo "$want" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
	entry=$(field entry) source=$(field source)
	# The log's table: each band's lengths, then a letter per class.
	bands=$(field table | sed "$letters"'; s/,//g; s/:/ /g; s/;/, /g')
	zero="" near=""
	[ "$(field zero_mod)" -lt 4096 ] && zero=", zero_mod: $(field zero_mod)"
	[ "$(field near_max)" -gt 0 ] && near=", near_max: $(field near_max)"
	want_rule="Rule { above_max: $(field above_max)$near, below_max: $(field below_max)$zero, align_dst: $(field align_dst), bands: [$bands] }"
	case "$(field status)" in
	measured) want_tail="($entry, measured)" ;;
	inherited) want_tail="($entry, inherited from $source)" ;;
	*) want_tail="($entry, baseline: no evidence)" ;;
	esac
	want_tail=$(echo "$want_tail" | sed 's/^(-,/(no entry for this CPU,/')
	if [ "$rule" = "memcpy: $want_rule $want_tail" ]; then
		ok
		echo "$cpu: $cpuid: $rule [lookup: $want] ${seconds}s"
	else
		bad "$cpu: $cpuid: logged '$rule', uarchgen lookup gives '$want_rule $want_tail'"
	fi
done
summary
