#!/bin/sh
# make check-kernel: builds tests/kernel/ against a copy of out/FLAVOR/ (as
# a user vendors it) with the C compiler alone, from the GAS form of the
# routines (no nasm in this build), boots it under QEMU (TCG) on CPU models of
# both vendors, and checks that each boot's logged rule is what
# `uarchgen lookup` gives for the CPUID that QEMU presented, and that the
# generated tests pass in ring 0.
# usage: tests/kernel/run.sh FLAVOR [CPU_MODEL...]   (from the repository root)
set -u
if [ "${1:-}" = "--help" ]; then
	sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/lib.sh"
FLAVOR=${1:?usage: tests/kernel/run.sh FLAVOR [CPU_MODEL...]}
shift
CPUS=${*:-EPYC EPYC-Rome EPYC-Milan Skylake-Client qemu64}
B=build/test-kernel/$FLAVOR
QEMU=${QEMU:-qemu-system-x86_64}
command -v "$QEMU" >/dev/null || { echo "check-kernel: $QEMU is missing (make deps installs qemu-system-x86)" >&2; exit 2; }

rm -rf "$B" && mkdir -p "$B/vendor"
cp -r "out/$FLAVOR/." "$B/vendor/" # vendoring: copy the files, nothing else
KFLAGS="-std=c99 -Wall -Wextra -Werror -ffreestanding -nostdlib -mno-red-zone -mgeneral-regs-only -mcmodel=kernel \
-fno-pic -fno-pie -fno-stack-protector -fno-asynchronous-unwind-tables -O2"
# A build that cannot reach nasm: PATH holds only the tools it names.
mkdir -p "$B/bin" && for tool in cc as ld objcopy; do ln -s "$(command -v $tool)" "$B/bin/$tool"; done
# shellcheck disable=SC2086
if ! PATH=$ROOT/$B/bin /bin/sh -c "cc $KFLAGS -I$B -c tests/kernel/kmain.c -o $B/kmain.o &&
	cc $KFLAGS -c $B/vendor/copy_rule.c -o $B/copy_rule.o &&
	cc $KFLAGS -c $B/vendor/tests/rule_tests.c -o $B/rule_tests.o &&
	cc -c $B/vendor/x86_64/copy.S -o $B/copy.o &&
	cc -c tests/kernel/boot.S -o $B/boot.o &&
	ld -nostdlib -static --no-warn-rwx-segments -T tests/kernel/kernel.ld -o $B/kernel.elf $B/boot.o $B/kmain.o \
		$B/copy_rule.o $B/rule_tests.o $B/copy.o &&
	objcopy -O elf32-i386 $B/kernel.elf $B/kernel32.elf"; then
	echo "check-kernel: the kernel does not build from the GAS output" >&2
	exit 1
fi
# QEMU's Multiboot loader takes 32-bit ELF only; the 64-bit code rides inside unchanged.

for cpu in $CPUS; do
	log=$B/boot-$cpu.log
	start=$(date +%s)
	timeout 600 "$QEMU" -machine pc -accel tcg -cpu "$cpu" -m 128M -kernel "$B/kernel32.elf" -display none \
		-monitor none -serial "file:$log" -device isa-debug-exit,iobase=0xf4,iosize=0x04 -no-reboot \
		2>"$B/qemu-$cpu.err"
	rc=$?
	seconds=$(($(date +%s) - start))
	if [ $rc -eq 1 ] && grep -q '^ring 0: [0-9]* passed, 0 failed' "$log"; then
		ok
	else
		bad "$cpu: boot exited $rc after ${seconds}s: $(grep -E '^(FAIL|ring 0)' "$log" | head -5 | tr '\n' ' ')"
		cat "$B/qemu-$cpu.err" | head -3
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
	# The log's table: each band's lengths, then a letter per class (the
	# catalogue's letters, gen/rule_limits.h; the longer names first).
	bands=$(field table | sed 's/avx512_forward/Z/g; s/avx512_down/X/g; s/avx2_forward/V/g; s/avx2_down/W/g;
		s/avx2_small/Q/g; s/avx2_nt/N/g; s/forward_aligned/A/g; s/forward/F/g; s/down/D/g; s/small/S/g;
		s/,//g; s/:/ /g; s/;/, /g')
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
