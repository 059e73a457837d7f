#!/bin/sh
# The instruction scan: disassembles kernel-flavor objects and fails on what
# a kernel's copy must never contain:
#   - an xmm, ymm or zmm register (kernels do not save vector state for copies);
#   - std or cld (the ABI keeps DF clear; the routines trust it and never write it);
#   - call (the routines are leaves: no stack, no recursion into memcpy);
#   - a memory operand below rsp (kernels build with -mno-red-zone).
# usage: scan_kernel_objects.sh [--allow-call] OBJECT...
#   --allow-call  for compiled C objects, whose functions may call each other
# Prints each offending instruction; exits 1 if there is one.
set -u
allow_call=0
if [ "${1:-}" = "--help" ]; then
	sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi
if [ "${1:-}" = "--allow-call" ]; then
	allow_call=1
	shift
fi
[ $# -gt 0 ] || { echo "usage: $0 [--allow-call] OBJECT..." >&2; exit 2; }
status=0
for obj in "$@"; do
	if ! objdump -d -M intel --no-show-raw-insn "$obj" >"${TMPDIR:-/tmp}/scan.$$" 2>&1; then
		echo "$obj: objdump could not disassemble it" >&2
		rm -f "${TMPDIR:-/tmp}/scan.$$"
		exit 2
	fi
	awk -v obj="$obj" -v allow_call="$allow_call" '
		/^[ ]+[0-9a-f]+:\t/ {
			split($0, f, "\t")
			insn = f[2]
			mnemonic = insn
			sub(/ .*/, "", mnemonic)
			why = ""
			if (insn ~ /(^|[^a-z])[xyz]mm[0-9]+/) why = "vector register"
			else if (mnemonic == "std" || mnemonic == "cld") why = "writes DF"
			else if (mnemonic == "call" && !allow_call) why = "call"
			else if (insn ~ /\[rsp-/ || insn ~ /\[rsp\+[a-z0-9*]+-0x/) why = "memory below rsp"
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
