#!/bin/sh
# The instruction scan: disassembles a flavor's objects and fails on what its
# routines must never contain:
#   - a register wider than the flavor's ISA allows (gpr: no xmm, ymm or zmm,
#     for kernels do not save vector state for copies; avx2: no zmm);
#   - std or cld (the ABI keeps DF clear; the routines trust it and never write it);
#   - call (the routines are leaves: no stack, no recursion into memcpy);
#   - a memory operand below rsp, unless the flavor has a red zone (kernels
#     build with -mno-red-zone).
#   - in a routine with a gate of its own (--gate), a register wider than
#     that gate allows: a strategy's routine alone runs only where its isa
#     is enabled, but must not reach past it.
# usage: scan_objects.sh [--isa gpr|avx2|avx512] [--red-zone 0|1] [--allow-call]
#                        [--gate SYMBOL=gpr|avx2|avx512]... OBJECT...
#   defaults: --isa gpr --red-zone 0
#   --allow-call  for compiled C objects, whose functions may call each other
# Prints each offending instruction; exits 1 if there is one.
set -u
allow_call=0
if [ "${1:-}" = "--help" ]; then
	sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi
isa=gpr
red_zone=0
gates=""
while [ $# -gt 0 ]; do
	case $1 in
	--allow-call) allow_call=1 ;;
	--gate)
		case ${2:-} in
		*=gpr | *=avx2 | *=avx512) gates="$gates ${2}" ;;
		*) echo "scan_objects.sh: --gate '${2:-}': say SYMBOL=gpr, avx2 or avx512" >&2; exit 2 ;;
		esac
		shift ;;
	--isa) isa=${2:-}; shift ;;
	--red-zone) red_zone=${2:-}; shift ;;
	*) break ;;
	esac
	shift
done
case $isa in
gpr) vector='[xyz]mm' ;;
avx2) vector='zmm' ;;
avx512) vector='none' ;;
*) echo "scan_objects.sh: --isa '$isa': say gpr, avx2 or avx512" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || { echo "usage: $0 [--isa ISA] [--red-zone 0|1] [--allow-call] OBJECT..." >&2; exit 2; }
status=0
for obj in "$@"; do
	if ! objdump -d -M intel --no-show-raw-insn "$obj" >"${TMPDIR:-/tmp}/scan.$$" 2>&1; then
		echo "$obj: objdump could not disassemble it" >&2
		rm -f "${TMPDIR:-/tmp}/scan.$$"
		exit 2
	fi
	awk -v obj="$obj" -v allow_call="$allow_call" -v vector="$vector" -v red_zone="$red_zone" -v gates="$gates" '
		BEGIN {
			n = split(gates, g, " ")
			for (i = 1; i <= n; i++) {
				split(g[i], kv, "=")
				gate[kv[1]] = kv[2] == "gpr" ? "[xyz]mm" : kv[2] == "avx2" ? "zmm" : "none"
			}
		}
		# A symbol opens a routine; a local label (sym.label) stays in it.
		/^[0-9a-f]+ <[^>]+>:$/ {
			name = $2
			gsub(/[<>:]/, "", name)
			sub(/\..*/, "", name)
			if (name != "") routine = name
			next
		}
		/^[ ]+[0-9a-f]+:\t/ {
			split($0, f, "\t")
			insn = f[2]
			mnemonic = insn
			sub(/ .*/, "", mnemonic)
			why = ""
			if (insn ~ ("(^|[^a-z])" vector "[0-9]+")) why = "vector register"
			else if ((routine in gate) && insn ~ ("(^|[^a-z])" gate[routine] "[0-9]+"))
				why = "vector register beyond its gate"
			else if (mnemonic == "std" || mnemonic == "cld") why = "writes DF"
			else if (mnemonic == "call" && !allow_call) why = "call"
			else if (red_zone == 0 && (insn ~ /\[rsp-/ || insn ~ /\[rsp\+[a-z0-9*]+-0x/)) why = "memory below rsp"
			if (why != "") {
				addr = f[1]
				gsub(/[ :]/, "", addr)
				printf "%s: 0x%s: %s: %s\n", obj, addr, insn, why
				bad = 1
			}
		}
		END { exit bad }
	' "${TMPDIR:-/tmp}/scan.$$" || status=1
	rm -f "${TMPDIR:-/tmp}/scan.$$"
done
exit $status
