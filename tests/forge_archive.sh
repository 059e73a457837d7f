#!/bin/sh
# Makes a run archive that says it came from another machine: the timings
# of IN (a real archive, written by the probe here) with the CPUID leaves
# that say VENDOR, SIGNATURE (leaf 1 EAX) and BRAND, and HYPERVISOR ("none":
# bare metal, the leaf 1 hypervisor bit clear; else its vendor string, bit
# set). The checksum is made again, so the archive is whole; it tests the
# import of other vendors, guests and uncovered cores, not any timing.
# usage: tests/forge_archive.sh IN OUT VENDOR SIGNATURE HYPERVISOR BRAND
#   e.g. tests/forge_archive.sh q.run spr.run GenuineIntel 000806f8 none "Intel(R) Xeon(R) Platinum 8480+"
# A trailing CLAIM=bare (environment) keeps the hypervisor bit but writes
# "hypervisor none": the tampered claim the import must refuse.
set -eu
IN=$1 OUT=$2 VENDOR=$3 SIG=$4 HV=$5 BRAND=$6

# The 32-bit little-endian words of a string, padded with NULs (or spaces).
words() { # words TEXT BYTES PAD
	printf '%-*.*s' "$2" "$2" "$1" | { if [ "$3" = nul ]; then tr ' ' '\000'; else cat; fi; } |
		od -An -v -tx4 | tr -s ' \n' '  ' | sed 's/^ //; s/ $//'
}
set -- $(words "$VENDOR" 12 nul)
V_EBX=$1 V_EDX=$2 V_ECX=$3
set -- $(words "$BRAND" 48 space)
B="$*"
set -- $(words "$HV" 12 nul)
H_EBX=$1 H_ECX=$2 H_EDX=$3

guest=1
[ "$HV" = none ] && guest=0
claim=$HV
[ "${CLAIM:-}" = bare ] && claim=none && guest=1

sed '$d' "$IN" | while read -r key a b c d e f rest; do
	case "$key $a $b" in
	"hypervisor "*) echo "hypervisor $claim" ;;
	"cpuid 00000000 00000000") echo "cpuid $a $b $c $V_EBX $V_ECX $V_EDX" ;;
	"cpuid 00000001 00000000")
		if [ $guest = 1 ]; then e=$(printf '%08x' $((0x$e | 0x80000000))); else e=$(printf '%08x' $((0x$e & 0x7fffffff))); fi
		echo "cpuid $a $b $SIG $d $e $f" ;;
	"cpuid 80000002 00000000") set -- $B; echo "cpuid $a $b $1 $2 $3 $4" ;;
	"cpuid 80000003 00000000") set -- $B; echo "cpuid $a $b $5 $6 $7 $8" ;;
	"cpuid 80000004 00000000") set -- $B; echo "cpuid $a $b $9 ${10} ${11} ${12}" ;;
	"cpuid 40000000 00000000") [ $guest = 1 ] && echo "cpuid $a $b $c $H_EBX $H_ECX $H_EDX" ;;
	"cpuid 40000001 00000000") [ $guest = 1 ] && echo "cpuid $a $b $c $d $e $f" ;;
	*) echo "$key${a:+ $a}${b:+ $b}${c:+ $c}${d:+ $d}${e:+ $e}${f:+ $f}${rest:+ $rest}" ;;
	esac
done >"$OUT.body"
# A guest's archive from a bare machine lacks the 0x40000000 leaves: add them.
if [ $guest = 1 ] && ! grep -q '^cpuid 40000000 ' "$OUT.body"; then
	sed -i "/^flavor /i cpuid 40000000 00000000 40000001 $H_EBX $H_ECX $H_EDX\ncpuid 40000001 00000000 00000000 00000000 00000000 00000000" "$OUT.body"
fi
{ cat "$OUT.body"; echo "sha256 $(sha256sum "$OUT.body" | cut -d' ' -f1)"; } >"$OUT"
rm -f "$OUT.body"
