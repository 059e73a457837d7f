#!/bin/sh
# The two syntaxes are one program: for every routine file of out/, the NASM
# form (name.asm, nasm -f elf64) and the GAS form (name.S, assembled by gcc
# and by clang, and by rustc's global_asm! where rustc is installed) must
# give identical .text bytes, identical exported symbols (name, type, size,
# binding, section, value), and identical relocations: same offsets, types
# and places they resolve to, in every section. A negative
# control changes one instruction of one back-end's output and must fail.
# usage: tests/syntax_identity.sh [OUT_DIR]   (default out)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"
OUT=$(cd "${1:-out}" && pwd) || exit 2

# describe OBJECT: what must be the same, as text, in a fixed order.
describe() {
	objcopy -O binary -j .text "$1" "$1.text" || return 1
	echo "text $(od -An -tx1 -v "$1.text" | tr -s ' \n' '  ')"
	echo "-- exported symbols"
	objdump -t "$1" >"$1.syms"
	grep -E '^[0-9a-f]{16} [gw]' "$1.syms" | LC_ALL=C sort -k 6
	echo "-- relocations: offset, type, and the place they resolve to"
	# The place is section + offset: NASM may name a target by its section,
	# or by another symbol at the same address, where GAS names the symbol.
	readelf -rW "$1" | awk -v syms="$1.syms" '
		function hex(s,   i, v) {
			v = 0
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
			return v
		}
		BEGIN { # each name'"'"'s section, from its first line in the symbol table
			while ((getline line < syms) > 0)
				if ((n = split(line, f)) >= 3 && !(f[n] in section))
					section[f[n]] = f[n - 2]
		}
		/^Relocation section/ { print "section", $3; next }
		/^ *[0-9a-f]+ +[0-9a-f]+ +R_/ {
			place = hex($4) + ($6 == "-" ? -hex($7) : hex($7))
			printf "%s %s %s+%.0f\n", $1, $3, section[$5], place
		}'
}

# same NAME A.o B.o: A and B must describe alike.
same() {
	describe "$2" >"$T/a.txt" && describe "$3" >"$T/b.txt" || { bad "$1: cannot read the objects"; return 1; }
	if cmp -s "$T/a.txt" "$T/b.txt"; then return 0; fi
	echo "$1: differ:"
	diff "$T/a.txt" "$T/b.txt" | cut -c 1-200 | head -10
	return 1
}

# assemble_gas TOOL FILE.S OBJECT
assemble_gas() {
	case $1 in
	rustc)
		# raw: the file is assembly, not a format string (an AVX-512
		# mask is written {k1}).
		{ echo "std::arch::global_asm!(include_str!(\"$2\"), options(raw));"; } >"$T/lib.rs"
		rustc --edition 2021 --crate-type lib --emit obj -C opt-level=0 "$T/lib.rs" -o "$3" 2>"$T/err"
		;;
	*) "$1" -c "$2" -o "$3" 2>"$T/err" ;;
	esac
}

files=$(find "$OUT" -name '*.asm' | LC_ALL=C sort)
[ -n "$files" ] || { bad "no routine files (*.asm) under $OUT"; summary; exit; }
for asm in $files; do
	gas=${asm%.asm}.S
	[ -f "$gas" ] || { bad "$asm has no GAS form $gas"; continue; }
	nasm -f elf64 -w+all -Werror "$asm" -o "$T/nasm.o" || { bad "$asm does not assemble"; continue; }
	for tool in gcc clang rustc; do
		command -v $tool >/dev/null || { echo "skipped: $tool is not installed"; continue; }
		if ! assemble_gas $tool "$gas" "$T/$tool.o"; then
			bad "$gas: $tool refuses it"
			head -5 "$T/err"
		elif same "$asm against $gas ($tool)" "$T/nasm.o" "$T/$tool.o"; then
			ok
		else
			bad "$asm and $gas ($tool) are not one program"
		fi
	done

	# Negative control: one instruction changed in the GAS form only.
	sed '0,/^\( *\)sub     rcx, 8 /s//\1sub     rcx, 16 /' "$gas" >"$T/mutant.S"
	if cmp -s "$gas" "$T/mutant.S"; then
		bad "negative control: the mutation no longer applies to $gas"
	elif gcc -c "$T/mutant.S" -o "$T/mutant.o" && ! same "control" "$T/nasm.o" "$T/mutant.o" >/dev/null; then
		ok
	else
		bad "negative control: a changed instruction in $gas went unnoticed"
	fi
done
summary
