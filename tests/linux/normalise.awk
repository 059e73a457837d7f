# Reads objdump -dr -M intel --no-show-raw-insn of one object's .text and
# prints its instructions less what Linux's macros add or change, one a
# line, so that the GAS form and Linux's form of one generation print the
# same (text_identity.sh). Removed on both sides: nops and int3 (the
# padding of SYM_FUNC_START's alignment, ALTERNATIVE's placeholders, SLS's
# int3 after ret, codealign's fill) and endbr64 (SYM_FUNC_START's ENDBR).
# Changed: jmp __x86_return_thunk (RET under CONFIG_RETHUNK) prints as ret;
# a jump's target prints as the number of the instruction it reaches, not
# an address. With -v alts=FILE (lines "ADDRESS MNEMONIC", hex, from the
# object's .altinstructions), the instruction at each ADDRESS prints as its
# replacement: ASM_STAC's nops print as stac.
# A fault exit (a symbol ending in _fault, Linux's fixups, or
# _user_fault_exit, the shared one) is printed apart: "fault TEXT" lines.
function hex(s,   i, v) { v = 0; s = tolower(s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
BEGIN {
	if (alts != "") while ((getline l < alts) > 0) { split(l, f, " "); alt[hex(f[1])] = f[2] }
}
/^[0-9a-f]+ <.*>:$/ {
	name = $2; gsub(/[<>:]/, "", name)
	fault = name ~ /_fault$/ || name ~ /_user_fault_exit$/
	if (fault) faults++
	next
}
/^ *[0-9a-f]+:\t/ {
	a = $1; sub(/:$/, "", a); a = hex(a)
	t = $0; sub(/^ *[0-9a-f]+:\t/, "", t); sub(/ *#.*$/, "", t); gsub(/  +/, " ", t)
	if (a in alt) t = alt[a]
	split(t, w, " ")
	drop = w[1] == "nop" || w[1] == "int3" || w[1] == "endbr64" || w[1] == "data16" || w[1] == "cs" || t == "xchg ax,ax"
	if (drop) next
	n++; addr[n] = a; text[n] = t; infault[n] = fault ? faults : 0
	next
}
/^\t+[0-9a-f]+: R_X86_64_/ {
	if ($3 ~ /^__x86_return_thunk/) text[n] = "ret"
	else text[n] = text[n] " reloc " $2 " " $3
}
END {
	# Each instruction's number, fault exits left out.
	for (i = 1; i <= n; i++) number[i] = infault[i] ? 0 : ++counted
	for (i = 1; i <= n; i++) {
		t = text[i]
		split(t, w, " ")
		if (w[1] ~ /^j/ && w[2] ~ /^[0-9a-f]+$/) {
			to = hex(w[2])
			for (j = 1; j <= n && (addr[j] < to || infault[j]); j++) ;
			t = w[1] " @" (j <= n ? number[j] : "end")
		}
		if (infault[i]) fault_text[infault[i]] = fault_text[infault[i]] t "; "
		else print t
	}
	for (k = 1; k <= faults; k++) print "fault " fault_text[k]
}
