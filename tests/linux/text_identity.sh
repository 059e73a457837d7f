#!/bin/sh
# Linux's form of the routines is the GAS form's program: the code of
# LINUX.o (copy_linux.S built by Kbuild, whose code is in .noinstr.text,
# where Linux keeps memcpy) and the .text of GAS.S (copy.S of the same
# gen --linux run, assembled by the C compiler) are the same instructions,
# in the same order, with the same jumps and relocations, once
# normalise.awk has removed what Linux's macros add (README.md, "Vendoring
# into Linux", lists it); every fault exit of LINUX.o (each routine's
# fixup) is the instructions of GAS.S's shared one. Each stac and clac of
# GAS.S must be, in LINUX.o, an ALTERNATIVE at the same place whose
# replacement is that instruction.
# usage: tests/linux/text_identity.sh GAS.S LINUX.o
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || { echo "usage: $0 GAS.S LINUX.o" >&2; exit 2; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
listing() { objdump -dr -M intel --no-show-raw-insn -j "${2:-.text}" "$1"; }
cc -c "$1" -o "$T/gas.o" || exit 1
# Each ALTERNATIVE (a 12-byte struct alt_instr, asm/alternative.h): the
# address it patches and its replacement's mnemonic.
readelf -rW "$2" | awk '/^Relocation section/ { on = $3 == "'"'"'.rela.altinstructions'"'"'"; next }
	on && NF >= 7 { print $1, $5, $7 }' >"$T/altrel"
listing "$2" .altinstr_replacement | awk '/^ *[0-9a-f]+:\t/ { a = $1; sub(/:$/, "", a); print a, $2 }' >"$T/repl"
awk -v repl="$T/repl" '
	function hex(s,   i, v) { v = 0; s = tolower(s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	BEGIN { while ((getline l < repl) > 0) { split(l, f, " "); mn[hex(f[1])] = f[2] } }
	{ o = hex($1) }
	o % 12 == 0 && $2 == ".noinstr.text" { at[o] = $3 }
	o % 12 == 4 && $2 == ".altinstr_replacement" { to[o - 4] = mn[hex($3)] }
	END { for (o in at) print at[o], (to[o] == "" ? "?" : to[o]) }' "$T/altrel" >"$T/alts"
listing "$T/gas.o" | awk -f "$HERE/normalise.awk" >"$T/gas" &&
	listing "$2" .noinstr.text | awk -v alts="$T/alts" -f "$HERE/normalise.awk" >"$T/linux" || exit 1
status=0
grep -v '^fault ' "$T/gas" >"$T/gas.text"
grep -v '^fault ' "$T/linux" >"$T/linux.text"
if ! cmp -s "$T/gas.text" "$T/linux.text"; then
	echo "the instructions differ (GAS <, Linux >):"
	diff "$T/gas.text" "$T/linux.text" | head -10
	status=1
fi
exits=$(grep '^fault ' "$T/gas" | sort -u)
fixups=$(grep '^fault ' "$T/linux" | sort -u)
if [ "$(echo "$exits" | grep -c .)" -ne 1 ] || [ "$fixups" != "$exits" ]; then
	echo "the fixups are not the shared fault exit: ${exits:-none} against ${fixups:-none}"
	status=1
fi
alts=$(grep -c . "$T/alts")
if grep -qv ' \(stac\|clac\)$' "$T/alts"; then
	echo "alternatives other than stac and clac:"; grep -v ' \(stac\|clac\)$' "$T/alts" | head -3
	status=1
fi
echo "$(grep -c . "$T/gas.text") instructions alike, $(grep -c '^fault ' "$T/linux") fixups, $alts alternatives"
exit $status
