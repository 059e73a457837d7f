#!/bin/sh
# Every instruction of an object in Linux's form (gen --linux) that may
# touch user memory has its own __ex_table entry, to its routine's fixup,
# and every entry is one of those: objtool does not check this (it follows
# the entries, it does not ask for them), and Linux's fault handler finds a
# fixup only through an entry for the faulting instruction's own address
# (search_exception_tables, arch/x86/mm/extable.c). "May touch user
# memory": inside an access range [NAME_access, NAME_access_end), a memory
# operand that is not rip-relative and not lea's, or a string instruction,
# the rule of gen/render/asm_linux.c. NAME's fixup is NAME_fault.
# Prints the counts; exit 1 on any instruction without its entry, or entry
# without its instruction.
# usage: tests/linux/extable_check.sh OBJECT
set -u
[ $# -eq 1 ] || { echo "usage: $0 OBJECT" >&2; exit 2; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
# The routines' code is in .noinstr.text (gen/render/asm_linux.c, section).
TEXT=.noinstr.text
nm "$1" >"$T/syms" && objdump -d -M intel --no-show-raw-insn -j $TEXT "$1" >"$T/dis" &&
	readelf -rW "$1" >"$T/rel" || { echo "extable_check.sh: cannot read $1" >&2; exit 1; }
# The entries: "from fixup", offsets in the code (each entry is 12 bytes:
# from - ., fixup - ., type; asm/asm.h, _ASM_EXTABLE_TYPE).
awk 'function hex(s,   i, v) { v = 0; s = tolower(s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	/^Relocation section/ { on = ($3 == "'"'"'.rela__ex_table'"'"'") ; next }
	on && $3 ~ /^R_X86_64_PC32$/ && $5 == "'"$TEXT"'" {
		off = hex($1); at = $7
		if (off % 12 == 0) from[off] = at; else if (off % 12 == 4) to[off - 4] = at
	}
	END { for (o in from) print from[o], to[o] }' "$T/rel" >"$T/entries"
awk -v syms="$T/syms" -v entries="$T/entries" 'function hex(s,   i, v) { v = 0; s = tolower(s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	BEGIN {
		while ((getline l < syms) > 0) {
			split(l, f, " ")
			addr[f[3]] = hex(f[1])
		}
		for (s in addr) if (s ~ /_access$/ && ((s "_end") in addr)) {
			n++; lo[n] = addr[s]; hi[n] = addr[s "_end"]
			name[n] = substr(s, 1, length(s) - 7)
			if (!((name[n] "_fault") in addr)) { print "no fixup " name[n] "_fault"; bad++ }
			fix[n] = addr[name[n] "_fault"]
		}
		while ((getline l < entries) > 0) {
			split(l, f, " ")
			entry[hex(f[1])] = hex(f[2]); entries_n++
		}
	}
	/^ *[0-9a-f]+:\t/ {
		a = $1; sub(/:$/, "", a); a = hex(a); sub(/^ *[0-9a-f]+:\t/, "")
		split($0, w, " ")
		for (i = 1; i <= n; i++) if (a >= lo[i] && a < hi[i]) break
		if (i > n) next
		touches = index($0, "[") && !index($0, "[rip") && w[1] != "lea" && w[1] !~ /^nop/
		if (!touches) next
		insns++
		if (!(a in entry)) { printf "no entry: %x %s (%s)\n", a, $0, name[i]; bad++; next }
		if (entry[a] != fix[i]) { printf "entry at %x goes to %x, not %s_fault\n", a, entry[a], name[i]; bad++ }
		seen[a] = 1
	}
	END {
		for (e in entry) if (!(e in seen)) { printf "entry at %x: no user access there\n", e; bad++ }
		printf "%d access ranges, %d instructions that may touch user memory, %d entries\n", n, insns, entries_n
		exit bad > 0
	}' "$T/dis"
