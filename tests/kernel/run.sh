#!/bin/sh
# make check-kernel: builds tests/kernel/ against a copy of out/ (as a user
# vendors it), boots it under QEMU (TCG) on CPU models of both vendors, and
# checks that each boot's logged rule is what `uarchgen query` gives for
# the CPUID that QEMU presented, and that the generated tests pass in ring 0.
# usage: tests/kernel/run.sh [CPU_MODEL...]   (from the repository root)
set -u
if [ "${1:-}" = "--help" ]; then
	sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/lib.sh"
CPUS=${*:-EPYC EPYC-Rome Skylake-Client qemu64}
B=build/kernel
QEMU=${QEMU:-qemu-system-x86_64}
command -v "$QEMU" >/dev/null || { echo "check-kernel: $QEMU is missing (make deps installs qemu-system-x86)" >&2; exit 2; }

rm -rf "$B" && mkdir -p "$B/vendor"
cp -r out/. "$B/vendor/" # vendoring: copy the files, nothing else
KFLAGS="-std=c99 -Wall -Wextra -Werror -ffreestanding -nostdlib -mno-red-zone -mgeneral-regs-only -mcmodel=kernel \
-fno-pic -fno-pie -fno-stack-protector -fno-asynchronous-unwind-tables -O2"
# shellcheck disable=SC2086
if ! { cc $KFLAGS -I"$B" -c tests/kernel/kmain.c -o "$B/kmain.o" &&
	cc $KFLAGS -c "$B/vendor/copy_rule.c" -o "$B/copy_rule.o" &&
	cc $KFLAGS -c "$B/vendor/tests/rule_tests.c" -o "$B/rule_tests.o" &&
	nasm -f elf64 "$B/vendor/x86_64/copy.asm" -o "$B/copy.o" &&
	nasm -f elf64 tests/kernel/boot.asm -o "$B/boot.o" &&
	ld -nostdlib -static --no-warn-rwx-segments -T tests/kernel/kernel.ld -o "$B/kernel.elf" "$B/boot.o" "$B/kmain.o" \
		"$B/copy_rule.o" "$B/rule_tests.o" "$B/copy.o" &&
	objcopy -O elf32-i386 "$B/kernel.elf" "$B/kernel32.elf"; }; then
	echo "check-kernel: the kernel does not build" >&2
	exit 1
fi
# QEMU's Multiboot loader takes 32-bit ELF only; the 64-bit code rides inside unchanged.

gen/uarchgen query >"$B/query.txt" || exit 1

# expected VENDOR FAMILY MODEL: "entry window status" as uarchgen query lists them.
expected() {
	awk -v vendor="$1" -v family="$2" -v model="$3" '
		function hex(s,   v, i) {
			v = 0
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
			return v
		}
		NR == 1 { next }
		$3 == "kernel" && $2 == vendor && $1 !~ /^\(/ {
			n = split($NF, ranges, ",")
			for (i = 1; i <= n; i++) {
				split(ranges[i], fm, "/")
				split(fm[2], lh, "-")
				lo = hex(lh[1]); hi = (2 in lh) ? hex(lh[2]) : lo
				if (hex(fm[1]) == family && model >= lo && model <= hi) {
					status = ($6 == "measured") ? "measured" : "extrapolated from " $8
					print $1, $4, status
					found = 1
					exit
				}
			}
		}
		$1 == "(other)" && $2 == vendor && $3 == "kernel" && !found { other = "none " $4 " extrapolated from " $8 }
		END {
			if (found) exit
			if (other != "") print other
			else print "none 0 unknown"
		}' "$B/query.txt"
}

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
	want=$(expected "$vendor" "$family" "$model")
	entry=${want%% *}
	rest=${want#* }
	window=${rest%% *}
	status=${rest#* }
	[ "$entry" = none ] && entry="no entry for this CPU"
	case "$status" in
	measured) want_tail="($entry, measured)" ;;
	unknown) want_tail="($entry, unknown vendor: default)" ;;
	*) want_tail="($entry, $status)" ;;
	esac
	if echo "$rule" | grep -qF "Rule { window: $window" && echo "$rule" | grep -qF "$want_tail"; then
		ok
		echo "$cpu: $cpuid: $rule [query: $want] ${seconds}s"
	else
		bad "$cpu: $cpuid: logged '$rule', uarchgen query gives window $window $want_tail"
	fi
done
summary
