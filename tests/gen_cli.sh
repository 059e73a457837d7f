#!/bin/sh
# uarchgen as a user runs it: determinism, check, bad templates, commands,
# options, guards. A bad database: tests/gen_bad_db.sh.
# Prints "N passed, N failed" last; exits nonzero on any failure.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=$ROOT/gen/uarchgen
. "$ROOT/tests/lib.sh"
# The flavor whose files the checks below read: the first the database holds.
F=$("$GEN" flavors | head -n 1 | cut -d" " -f1)
# Databases copied into $T find their evidence there.
ln -s "$ROOT/evidence" "$T/evidence"

# ---- determinism and check ----
"$GEN" gen -q --out "$T/a" && "$GEN" gen -q --out "$T/b"
check "two runs give identical bytes" diff -r "$T/a" "$T/b"
check "checked-in out/ matches the database" "$GEN" check
check "out/ matches a fresh run" diff -r "$T/a" out
check "MANIFEST verifies the files" sh -c "cd '$T/a' && sha256sum --quiet -c MANIFEST"

cp -r out "$T/drift"
printf "; hand edit\n" >>"$T/drift/$F/x86_64/copy.asm"
"$GEN" check --out "$T/drift" >"$T/drift.out" 2>"$T/drift.err"
rc=$?
check "check fails on a hand edit" test $rc -eq 1
check "check prints the diff" grep -q '^-; hand edit' "$T/drift.out"
check "check names the fix" grep -q 'fix: make' "$T/drift.err"
cp -r out "$T/extra"
echo x >"$T/extra/stray.c"
check "check fails on a file it does not generate" sh -c "! '$GEN' check --out '$T/extra' >/dev/null 2>&1"

# ---- bad templates: a clear error, exit 1, nothing written ----
cp -r out "$T/victim"
cp -r templates "$T/tpl"
echo "@ error('deliberate failure')" >>"$T/tpl/flavor/x86_64/copy.asm.tpl"
line=$(wc -l <"$T/tpl/flavor/x86_64/copy.asm.tpl")
"$GEN" gen -q --templates "$T/tpl" --out "$T/victim" >/dev/null 2>"$T/err"
rc=$?
check "a template raising a Lua error exits 1" test $rc -eq 1
check "the error names the template file and line" \
	grep -qF "$T/tpl/flavor/x86_64/copy.asm.tpl:$line: deliberate failure" "$T/err"
check "a template error writes nothing" diff -r out "$T/victim"
cp -r templates "$T/tpl2"
sed -i '1d' "$T/tpl2/flavor/copy_rule.h.tpl"
check "a template without its banner is refused" \
	sh -c "'$GEN' gen -q --templates '$T/tpl2' --out '$T/victim' 2>&1 | grep -q 'does not start with'"
check "...and writes nothing" diff -r out "$T/victim"

# gen --linux's patch: what it adds, and its hand-written part missing.
"$GEN" gen -q --linux --out "$T/lx" >/dev/null 2>&1
check "gen --linux writes linux/uarchcopy.patch, with the routines as a new file" \
	grep -qx '+++ b/arch/x86/lib/uarchcopy/copy_linux.S' "$T/lx/linux/uarchcopy.patch"
cp -r templates "$T/tpl6"
rm "$T/tpl6/linux/linux-6.1.diff"
"$GEN" gen -q --linux --templates "$T/tpl6" --out "$T/lx6" >/dev/null 2>"$T/err"
rc=$?
check "gen --linux without templates/linux/linux-6.1.diff exits 1, naming it" \
	sh -c "[ $rc -eq 1 ] && grep -q 'linux/linux-6.1.diff: No such file' '$T/err'"
check "...and writes nothing" test ! -e "$T/lx6"
# gen --linux-version 6.12: that tree's hunks, and a baseline that is
# Linux 6.12's own choice; a version it does not know is a usage error.
"$GEN" gen -q --linux-version 6.12 --out "$T/lx12" >/dev/null 2>&1
check "gen --linux-version 6.12 patches 6.12's memcpy_64.S and copy_user_64.S" \
	sh -c "grep -qx '+++ b/arch/x86/lib/memcpy_64.S' '$T/lx12/linux/uarchcopy.patch' &&
		grep -qx '+++ b/arch/x86/lib/copy_user_64.S' '$T/lx12/linux/uarchcopy.patch'"
check "...whose entries choose by FSRM as 6.12 does, and the 6.1 patch's do not" \
	sh -c "grep -q '^+ *ALTERNATIVE \"call rep_movs_alternative\", \"rep movsb\", X86_FEATURE_FSRM' '$T/lx12/linux/uarchcopy.patch' &&
		! grep -q 'ALTERNATIVE' '$T/lx/kernel/x86_64/copy_linux.S'"
check "...and the same out/ files besides Linux's form" \
	sh -c "diff -r -x copy_linux.S -x uarchcopy.patch -x MANIFEST '$T/lx' '$T/lx12'"
"$GEN" gen -q --linux-version 6.3 --out "$T/lx63" >/dev/null 2>"$T/err"
rc=$?
check "gen --linux-version 6.3 exits 2, naming the versions it knows" \
	sh -c "[ $rc -eq 2 ] && grep -q 'knows (6.1, 6.12)' '$T/err' && test ! -e '$T/lx63'"

# A misspelt field is an error, not a silent nil, even where its value would
# only be tested for truth.
cp -r templates "$T/tpl5"
echo '@ if db.entries[1].rules[flavor.name].windw then error("unreachable") end' >>"$T/tpl5/flavor/copy_rule.h.tpl"
check "a misspelt field fails the run, naming it" sh -c \
	"'$GEN' gen -q --templates '$T/tpl5' --out '$T/victim' 2>&1 | grep -q \"no field 'windw'\""
check "a NULL column is a field: reading it is not an error" sh -c \
	"grep -q 'cpuid_limit' templates/out/DEBT.md.tpl && '$GEN' gen -q --out '$T/nulls'"

# The flavor's routine list, the catalogue and copy.asm must agree, every way.
cp -r templates "$T/tpl3"
sed -i 's/^}$/  { name = "copy_sideways", kind = "copy", min_n = 0, max_n = -1, access = false, patched = false, isa = "gpr", proto = "void *%s(void)", doc = "x" },\n}/' \
	"$T/tpl3/lib/routines.lua"
cp uarch.db "$T/sideways.db"
sqlite3 "$T/sideways.db" "INSERT INTO flavor_routine VALUES ('$F', 'copy_sideways')"
check "a listed routine copy.asm does not export is refused" sh -c \
	"'$GEN' gen -q --db '$T/sideways.db' --templates '$T/tpl3' --out '$T/victim' 2>&1 | grep -q 'lists routine copy_sideways, which this file does not export'"
check "a listed routine the catalogue lacks is refused, naming the row" sh -c \
	"'$GEN' gen -q --db '$T/sideways.db' --out '$T/victim' 2>&1 | grep -q \"table flavor_routine, row (flavor='$F', routine='copy_sideways'), column routine\""
cp -r templates "$T/tpl4"
sed -i 's/^        section \.note\.GNU-stack$/        func    uc_copy_extra\nuc_copy_extra:\n        ret\n        endfunc\n&/' \
	"$T/tpl4/flavor/x86_64/copy.asm.tpl"
check "an exported routine the list lacks is refused" sh -c \
	"'$GEN' gen -q --templates '$T/tpl4' --out '$T/victim' 2>&1 | grep -q 'exports uc_copy_extra, which is not in the flavor.s routine list'"
check "...and neither writes anything" diff -r out "$T/victim"

# ---- commands and usage ----
for cmd in gen check query debt dump help; do
	check "uarchgen $cmd --help" sh -c "'$GEN' $cmd --help | grep -q '^usage: uarchgen'"
done
check "unknown option exits 2" sh -c "'$GEN' --frobnicate 2>/dev/null; test \$? -eq 2"
check "unknown command exits 2" sh -c "'$GEN' frobnicate 2>/dev/null; test \$? -eq 2"
check "errors go to stderr" sh -c "'$GEN' --frobnicate 2>/dev/null | grep -q . && exit 1 || exit 0"

"$GEN" query >"$T/query"
# Expectations come from the database, so a new measurement changes none of them.
for u in $(sqlite3 uarch.db "SELECT uarch FROM measured_rule WHERE flavor = '$F'"); do
	check "query: $u is shown measured" grep -Eq "^$u +[A-Za-z]+ +$F +measured " "$T/query"
done
for u in $(sqlite3 uarch.db "SELECT uarch FROM debt WHERE flavor = '$F' AND status = 'baseline'"); do
	check "query: $u is shown on the baseline" grep -Eq "^$u +[A-Za-z]+ +$F +baseline \(no evidence\) .* 0\.\. forward\$" "$T/query"
done
check "query: every entry is measured, inherited or baseline" sh -c \
	"grep -Ev '^(entry|\(other\)) ' '$T/query' | grep -Ev ' (measured (by )?20[0-9-]+|inherited from [a-z]|baseline \(no evidence\)) ' | grep -q . && exit 1 || exit 0"
check "query: the entries the database measures are the ones shown measured" test \
	"$(grep -Ec " $F +measured " "$T/query")" -eq "$(sqlite3 uarch.db "SELECT count(*) FROM measured_rule WHERE flavor = '$F'")"
cp uarch.db "$T/inherit.db"
sqlite3 "$T/inherit.db" "INSERT INTO inherit VALUES ('zen1', '$F', 'zen2', 'the same design, for this test')"
"$GEN" query --db "$T/inherit.db" >"$T/query_inherit" 2>&1
check "query: an inheritance shows its source and reason" grep -Eq \
	"^zen1 .* inherited from zen2 +see zen2: the same design, for this test " "$T/query_inherit"
check "lookup: an inherited entry gets its source's table" sh -c \
	"'$GEN' lookup --db '$T/inherit.db' AuthenticAMD 0x17 0x01 | grep -q 'entry=zen1 status=inherited source=zen2 ' &&
	 test \"\$('$GEN' lookup --db '$T/inherit.db' AuthenticAMD 0x17 0x01 | sed 's/.* above_max=//')\" = \
	      \"\$('$GEN' lookup --db '$T/inherit.db' AuthenticAMD 0x17 0x31 | sed 's/.* above_max=//')\""
"$GEN" debt >"$T/debt"
awk -v h="## Flavor \`$F\`" '$0 == h { on = 1; next } /^## / { on = 0 } on' "$T/debt" >"$T/debt.$F"
check "debt lists zen3's $F rule, measured only in a guest" grep -q "^| zen3 | $F | KVMKVMKVM |" "$T/debt"
check "debt does not list zen2, for flavor $F" sh -c "! grep -q '^| zen2 |' '$T/debt.$F'"
check "debt is out/DEBT.md" cmp "$T/debt" out/DEBT.md

"$GEN" dump >"$T/dump.sql"
sqlite3 "$T/rebuilt.db" <"$T/dump.sql"
"$GEN" dump --db "$T/rebuilt.db" >"$T/dump2.sql"
check "dump round-trips to the same canonical text" cmp "$T/dump.sql" "$T/dump2.sql"
check "dump's rows are one transaction" sh -c "grep -c '^BEGIN TRANSACTION;\$\|^COMMIT;\$' '$T/dump.sql' | grep -qx 2 &&
	test \"\$(grep -n '^COMMIT;' '$T/dump.sql' | cut -d: -f1)\" -eq \"\$(wc -l <'$T/dump.sql')\""
cp uarch.db "$T/invalid.db"
sqlite3 "$T/invalid.db" "PRAGMA ignore_check_constraints = 1; UPDATE rule SET above_max = 9999 WHERE uarch = 'zen2';"
check "dump shows an invalid database too (git diff needs it)" sh -c "'$GEN' dump --db '$T/invalid.db' | grep -q \"'zen2','$F',9999\""

# ---- options: --target, --prefix, --memcpy-symbol ----
check "--target needs --out" sh -c "'$GEN' gen --target zen2 2>/dev/null; test \$? -eq 2"
check "--target of no entry exits 1" sh -c "'$GEN' gen --target zen9 --out '$T/tx' 2>/dev/null; test \$? -eq 1"
"$GEN" gen -q --target zen2 --out "$T/zen2"
ZEN2_ABOVE=$(sqlite3 uarch.db "SELECT above_max FROM rule WHERE uarch = 'zen2' AND flavor = '$F'")
check "--target zen2 holds its class bound as an immediate" grep -q "cmp     ecx, $ZEN2_ABOVE " "$T/zen2/$F/x86_64/copy.asm"
check "--target zen2 reads no installed table" sh -c "! grep -q 'uc_copy_short\|uc_copy_long_hi' '$T/zen2/$F/x86_64/copy.asm'"
# Every measured table compiles to a branch tree that passes its entry's tests.
for u in $(sqlite3 uarch.db "SELECT uarch FROM measured_rule WHERE flavor = '$F'"); do
	[ -d "$T/t_$u" ] || "$GEN" gen -q --target "$u" --out "$T/t_$u"
	check "--target $u builds" build_suite "$T/t_$u/$F"
	check "--target $u passes its generated tests" "$T/t_$u/$F/run" "$u"
	check "--target $u: its NASM and GAS forms are one program" sh -c "'$ROOT/tests/syntax_identity.sh' '$T/t_$u' >/dev/null 2>&1"
done
"$GEN" gen -q --target tigerlake --out "$T/tgl"
if [ "$(sqlite3 uarch.db "SELECT count(*) FROM rule_band WHERE uarch = 'tigerlake' AND flavor = '$F' AND 'down' IN (zero, above, below, elsewhere)")" -eq 0 ]; then
	check "--target tigerlake never goes down: its table does not" sh -c "! grep -q 'j[a-z]* *\.Lmemcpy_down\$' '$T/tgl/$F/x86_64/copy.asm'"
fi

"$GEN" gen -q --prefix kc_ --memcpy-symbol --out "$T/kc"
nasm -f elf64 "$T/kc/$F/x86_64/copy.asm" -o "$T/kc/copy.o"
nm "$T/kc/copy.o" >"$T/kc.nm"
check "--prefix kc_ exports kc_memcpy" grep -q ' T kc_memcpy$' "$T/kc.nm"
check "--prefix kc_ leaves no uc_ symbol" sh -c "! grep -q 'uc_' '$T/kc.nm'"
check "--memcpy-symbol exports a strong memcpy" grep -q ' T memcpy$' "$T/kc.nm"
check "--prefix reaches the C files" grep -q 'kc_rule_init' "$T/kc/$F/copy_rule.h"
# Macros take the prefix in upper case: the headers of kc_ and KC_ in one
# translation unit stop at an #error that says why; those of kc_ and uc_
# build together.
"$GEN" gen -q --prefix KC_ --out "$T/KC"
for f in $("$GEN" flavors | cut -d' ' -f1); do
	for h in copy_rule.h tests/routines.h tests/rule_tests.h; do
		printf '#include "%s"\n#include "%s"\n' "$T/kc/$f/$h" "$T/KC/$f/$h" >"$T/case.c"
		check "$f: the $h of kc_ and KC_ together fail the build, saying why" sh -c \
			"! cc -std=c99 -ffreestanding -c '$T/case.c' -o '$T/case.o' 2>'$T/case.err' &&
			 grep -q '#error .*differs from KC_ only in case' '$T/case.err'"
		printf '#include "%s"\n#include "%s"\nint unit;\n' "$T/kc/$f/$h" "$ROOT/out/$f/$h" >"$T/case.c"
		check "$f: the $h of kc_ and uc_ build together" cc -std=c99 -Wall -Wextra -Werror -ffreestanding -c "$T/case.c" -o "$T/case.o"
	done
done
"$GEN" gen -q --smap --out "$T/smap"
# One stac before each access range (every user copy, and each routine
# rule_patch may send one to), one clac after each and in the fault exit.
# NASM names an exported label by itself (wrt ..sym), a local one by its section.
ranges=$(grep -Ec '^        dq      uc_[a-z0-9_]*_access( wrt \.\.sym)?, uc_[a-z0-9_]*_access_end( wrt \.\.sym)?$' "$T/smap/$F/x86_64/copy.asm")
check "--smap: an access range for each user copy and each routine it may run" test "$ranges" -gt 3
check "--smap opens user access with stac" test "$(grep -c '^        stac$' "$T/smap/$F/x86_64/copy.asm")" -eq "$ranges"
check "--smap closes it with clac, in the fault exit too" test "$(grep -c '^        clac$' "$T/smap/$F/x86_64/copy.asm")" -eq $((ranges + 1))
check "no stac or clac without --smap" sh -c "! grep -Eq '^ +(stac|clac)$' out/$F/x86_64/copy.asm"
check "--smap assembles and passes the scan" sh -c \
	"nasm -f elf64 '$T/smap/$F/x86_64/copy.asm' -o '$T/smap.o' && tests/scan_objects.sh '$T/smap.o'"
check "a bad --prefix exits 2" sh -c "'$GEN' gen --prefix '1x' --out '$T/p' 2>/dev/null; test \$? -eq 2"

# ---- the guard against mixing out/ files of two runs ----
cp "$T/zen2/$F/copy_rule.h" "$T/a/$F/copy_rule.h"
check "a header of another run fails the build (#error)" sh -c \
	"! cc -std=c99 -ffreestanding -c '$T/a/$F/copy_rule.c' -o '$T/mixed.o' 2>'$T/mixed.err' && grep -q 'different uarchgen runs' '$T/mixed.err'"
cp "$T/b/$F/copy_rule.h" "$T/a/$F/copy_rule.h"
nasm -f elf64 "$T/a/$F/x86_64/copy.asm" -o "$T/a.o"
cc -std=c99 -ffreestanding -c "$T/zen2/$F/copy_rule.c" -o "$T/zen2_rule.o"
check "a copy.asm of another run fails the link" sh -c \
	"! cc -nostdlib -static -e uc_rule_init '$T/zen2_rule.o' '$T/a.o' -o '$T/mixed' 2>'$T/link.err' && \
	 grep -q 'undefined reference to .uc_out_stamp_' '$T/link.err'"

# The table dispatch, which the probe times every strategy through, tests
# each short copy (max_n 32, the least bounded one, of any isa) first, one
# compare each before the code tree (plan_short_first): none is charged
# the tree's compares that another is not.
shorts=$(sed -n 's/^\tX(STRATEGY_[A-Z0-9_]*, "\([a-z0-9_]*\)", [0-9]*, 32, ISA_.*/\1/p' "$ROOT/common/strategies.h")
check "the catalogue's short copies are read" test "$(echo $shorts | wc -w)" -ge 2
for f in kernel user; do
	# The flavor's codes: its UC_STRATEGY_CODES mask.
	mask=$(sed -n 's/^#define UC_STRATEGY_CODES \(0x[0-9a-f]*\)ull$/\1/p' "$ROOT/out/$f/copy_rule.h")
	for entry in uc_memcpy_table uc_memmove_table; do
		sed -n "/^$entry:/,/uniform: every class alike/p" "$ROOT/out/$f/x86_64/copy.asm" >"$T/shortcut"
		[ -s "$T/shortcut" ] || continue
		for s in $shorts; do
			code=$("$ROOT/gen/uarchgen" strategies | awk -v s="$s" '$2 == s { print $1 }')
			[ $(((mask >> code) & 1)) -eq 1 ] || continue
			check "$f $entry: $s is tested before the code tree" grep -Eq "^ +je +[.]L[a-z_]*_$s +; uniform: $s\$" "$T/shortcut"
		done
	done
done

summary
