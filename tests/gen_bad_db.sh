#!/bin/sh
# uarchgen refuses a bad database: rows the rules forbid, hostile text, a
# file that cannot be read. Each exits 1 with an error that names the table,
# row and column (or the file, when it cannot be read), and writes nothing.
# Prints "N passed, N failed" last; exits nonzero on any failure.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=$ROOT/gen/uarchgen
. "$ROOT/tests/lib.sh"
# The flavor whose files the checks below read: the first the database holds.
F=$("$GEN" flavors | head -n 1 | cut -d" " -f1)

# ---- bad input: a clear error, exit 1, nothing written ----
ln -s "$ROOT/evidence" "$T/evidence"
bad_case() { # bad_case NAME SQL EXPECTED...
	name=$1 sql=$2; shift 2
	cp uarch.db "$T/bad.db"
	sqlite3 "$T/bad.db" "PRAGMA ignore_check_constraints = 1; PRAGMA foreign_keys = 0; $sql"
	rm -rf "$T/victim" && cp -r out "$T/victim"
	"$GEN" gen -q --db "$T/bad.db" --out "$T/victim" >/dev/null 2>"$T/err"
	rc=$?
	if [ $rc -ne 1 ]; then bad "$name: exit $rc, want 1"; return; fi
	for want in "$@"; do
		if ! grep -qF -- "$want" "$T/err"; then bad "$name: no '$want' in: $(cat "$T/err")"; return; fi
	done
	if ! diff -r out "$T/victim" >/dev/null; then bad "$name: out/ changed"; return; fi
	ok
}
bad_case "overlapping CPUID ranges" \
	"INSERT INTO cpuid_range VALUES ('zen3', 23, 64, 70, 'test');" \
	"table cpuid_range" "row (family=23, model_lo=64, uarch='zen3')" "column model_lo" "overlap"
bad_case "above_max 2048" "UPDATE rule SET above_max = 2048 WHERE uarch = 'zen2';" \
	"table rule, row (uarch='zen2', flavor='$F'), column above_max: must be a distance in 0..2047"
bad_case "below_max -1" "UPDATE rule SET below_max = -1 WHERE uarch = 'tigerlake';" \
	"table rule, row (uarch='tigerlake', flavor='$F'), column below_max: must be a distance in 0..2047"
bad_case "near_max 2048" "UPDATE rule SET near_max = 2048 WHERE uarch = 'zen2';" \
	"table rule, row (uarch='zen2', flavor='$F'), column near_max: must be a distance in 0..2047"
bad_case "near_max inside the above class" "UPDATE rule SET near_max = 20 WHERE uarch = 'zen2';" \
	"table rule, row (uarch='zen2', flavor='$F'), column near_max: must be 0 (no near class) or more than above_max"
bad_case "above_max as text" "UPDATE rule SET above_max = 'wide' WHERE uarch = 'zen2';" \
	"table rule, row (uarch='zen2', flavor='$F'), column above_max: expected an integer"
bad_case "a measured rule with no evidence" "UPDATE rule SET evidence = '' WHERE uarch = 'zen2';" \
	"table rule, row (uarch='zen2', flavor='$F'), column evidence: is empty"
bad_case "evidence that does not exist" \
	"UPDATE rule SET evidence = 'evidence/nowhere/summary.md' WHERE uarch = 'zen2';" \
	"column evidence: 'evidence/nowhere/summary.md' does not exist"
bad_case "an unknown flavor" "INSERT INTO rule (uarch, flavor, above_max, below_max, align_dst, evidence, method, measured_on)
	VALUES ('zen3', 'avx', 0, 0, 0, 'https://example.org', 'm', '2026-01-01');" \
	"table rule, row (uarch='zen3', flavor='avx'), column flavor: unknown flavor"
bad_case "zero_mod 12" "UPDATE rule SET zero_mod = 12 WHERE uarch = 'zen2';" \
	"table rule, row (uarch='zen2', flavor='$F'), column zero_mod: must be one of 8, 16, 32, 64, 4096"
bad_case "align_dst 12" "UPDATE rule SET align_dst = 12 WHERE uarch = 'zen2';" \
	"table rule, row (uarch='zen2', flavor='$F'), column align_dst: must be one of"
# The table: bands from 0, touching, unbounded at the end, strategies valid for their lengths.
bad_case "a measured rule without a table" "DELETE FROM rule_band WHERE uarch = 'tigerlake';" \
	"table rule, row (uarch='tigerlake', flavor='$F'), column uarch: a measured rule needs its table"
bad_case "bands with a gap" "UPDATE rule_band SET length_lo = 65 WHERE uarch = 'zen2' AND length_lo = 64;" \
	"table rule_band, row (uarch='zen2', flavor='$F'), column length_lo: band 65.. does not start where the band before it ends"
bad_case "bands that overlap" "UPDATE rule_band SET length_hi = 70 WHERE uarch = 'zen2' AND length_lo = 0;" \
	"table rule_band, row (uarch='zen2', flavor='$F'), column length_lo: band 64.. does not start where the band before it ends"
bad_case "a first band not at 0" "UPDATE rule_band SET length_lo = 1 WHERE uarch = 'tigerlake';" \
	"table rule_band, row (uarch='tigerlake', flavor='$F'), column length_lo: the first band must start at length 0"
bad_case "a last band with a bound" "UPDATE rule_band SET length_hi = 100000 WHERE uarch = 'zen2' AND length_lo = 64;" \
	"table rule_band, row (uarch='zen2', flavor='$F'), column length_hi: the last band must have no bound"
bad_case "a band that ends before it starts" "UPDATE rule_band SET length_hi = 10 WHERE uarch = 'zen2' AND length_lo = 64;" \
	"table rule_band, row (uarch='zen2', flavor='$F', length_lo=64), column length_hi"
bad_case "a band past any length" "UPDATE rule_band SET length_lo = 3000000000 WHERE uarch = 'zen2' AND length_lo = 64;" \
	"table rule_band, row (uarch='zen2', flavor='$F', length_lo=3000000000), column length_lo: integer out of any sane range"
bad_case "down below 8 bytes" "UPDATE rule_band SET above = 'down' WHERE uarch = 'zen2' AND length_lo = 0;" \
	"table rule_band, row (uarch='zen2', flavor='$F', length_lo=0), column above: down needs lengths of 8 or more"
bad_case "small past 32 bytes" "UPDATE rule_band SET elsewhere = 'small' WHERE uarch = 'tigerlake';" \
	"table rule_band, row (uarch='tigerlake', flavor='$F', length_lo=0), column elsewhere: small serves lengths up to 32"
bad_case "an unknown strategy in class near" "UPDATE rule_band SET near = 'sideways' WHERE uarch = 'zen2' AND length_lo = 0;" \
	"table rule_band, row (uarch='zen2', flavor='$F', length_lo=0), column near: must be a strategy"
bad_case "an unknown strategy" "UPDATE rule_band SET zero = 'sideways' WHERE uarch = 'zen2' AND length_lo = 0;" \
	"table rule_band, row (uarch='zen2', flavor='$F', length_lo=0), column zero: must be a strategy"
bad_case "a vector strategy in a flavor of general registers" \
	"UPDATE rule_band SET above = 'avx2_down' WHERE uarch = 'zen2' AND length_lo = 64;" \
	"table rule_band, row (uarch='zen2', flavor='$F', length_lo=64), column above: avx2_down is not a strategy of flavor $F, whose isa is gpr"
bad_case "an aligned head without align_dst" \
	"UPDATE rule_band SET elsewhere = 'forward_aligned' WHERE uarch = 'zen2' AND length_lo = 64;" \
	"column elsewhere: forward_aligned needs the rule's align_dst"
# Inheritance: only a measured entry's rule, of the same vendor, with a reason.
bad_case "an inheritance without a reason" "INSERT INTO inherit VALUES ('zen3', '$F', 'zen2', '');" \
	"table inherit, row (uarch='zen3', flavor='$F'), column reason: is empty"
bad_case "inheriting an unmeasured entry" "DELETE FROM rule_band WHERE uarch = 'zen4' AND flavor = '$F'; DELETE FROM rule WHERE uarch = 'zen4' AND flavor = '$F'; INSERT INTO inherit VALUES ('zen3', '$F', 'zen4', 'a manual');" \
	"table inherit, row (uarch='zen3', flavor='$F'), column from_uarch: names an entry with no measured rule"
bad_case "inheriting across vendors" "INSERT INTO inherit VALUES ('zen3', '$F', 'tigerlake', 'a manual');" \
	"table inherit, row (uarch='zen3', flavor='$F'), column from_uarch: names an entry of another vendor"
bad_case "inheriting over a measurement" "INSERT INTO inherit VALUES ('zen2', '$F', 'zen2', 'a manual');" \
	"table inherit, row (uarch='zen2', flavor='$F'), column uarch: the entry has its own measured rule"
bad_case "an entry no range selects" "DELETE FROM cpuid_range WHERE uarch = 'zen6';" \
	"table uarch, row (name='zen6'), column name: no cpuid_range row selects this entry"
# memmove's stand-ins for an overlap: a copy that goes the way, of the flavor, for every length.
bad_case "an overlap stand-in that is no strategy" \
	"UPDATE rule SET overlap_above = 'sideways' WHERE uarch = 'zen5' AND flavor = 'user';" \
	"table rule, row (uarch='zen5', flavor='user'), column overlap_above: must be NULL or a strategy"
bad_case "an overlap stand-in that goes the other way" \
	"UPDATE rule SET overlap_above = 'avx2_forward' WHERE uarch = 'zen5' AND flavor = 'user';" \
	"table rule, row (uarch='zen5', flavor='user'), column overlap_above: avx2_forward cannot copy overlapping ranges down"
bad_case "a streaming overlap stand-in" \
	"UPDATE rule SET overlap_below = 'avx2_nt' WHERE uarch = 'zen5' AND flavor = 'user';" \
	"table rule, row (uarch='zen5', flavor='user'), column overlap_below: avx2_nt cannot copy overlapping ranges up"
bad_case "an overlap stand-in in a flavor without memmove" \
	"UPDATE rule SET overlap_above = 'down' WHERE uarch = 'zen2' AND flavor = 'kernel';" \
	"table rule, row (uarch='zen2', flavor='kernel'), column overlap_above: must be NULL: flavor kernel has no memmove"
bad_case "an overlap stand-in too long for the table's copies" \
	"UPDATE rule_band SET elsewhere = 'forward' WHERE uarch = 'zen5' AND flavor = 'user' AND length_lo = 0;
	 UPDATE rule SET overlap_above = 'avx512_down' WHERE uarch = 'zen5' AND flavor = 'user';" \
	"table rule, row (uarch='zen5', flavor='user'), column overlap_above: avx512_down copies from 64 bytes; the rule's copies that go one way start at 0"
bad_case "a bound on the C library's stand-in" \
	"UPDATE rule SET overlap_above = 'libc', overlap_above_max = 4096 WHERE uarch = 'zen5' AND flavor = 'user';" \
	"table rule, row (uarch='zen5', flavor='user'), column overlap_above_max: must be NULL: longer copies take the C library's memmove"
bad_case "a stand-in bound of 0" \
	"UPDATE rule SET overlap_below = 'avx2_forward', overlap_below_max = 0 WHERE uarch = 'zen5' AND flavor = 'user';" \
	"table rule, row (uarch='zen5', flavor='user'), column overlap_below_max: must be NULL (any length) or a length of 1 or more"
bad_case "a newer schema" "PRAGMA user_version = 99;" "schema version 99"
# No x86-64 CPU reports a family below 6: such a range is a typo.
bad_case "a family no 64-bit CPU reports" "INSERT INTO cpuid_range VALUES ('zen3', 5, 32, 47, 'test');" \
	"table cpuid_range, row (uarch='zen3', family=5, model_lo=32), column family: no x86-64 CPU reports a family below 6"

rm -rf "$T/victim" && cp -r out "$T/victim"
"$GEN" gen -q --db "$T/missing.db" --out "$T/victim" >/dev/null 2>"$T/err"
rc=$?
check "a missing database exits 1" test $rc -eq 1
check "a missing database is named" grep -qF "$T/missing.db: cannot open the database" "$T/err"
check "a missing database writes nothing" diff -r out "$T/victim"

# ---- hostile text: database text is data, never code ----
# Every text column the generator reads, in every table, given text that
# would end a C comment, add a line to a Markdown table or move a terminal's
# cursor: each is refused, naming the table and column, and nothing is
# written. A new text column is covered without a change here.
hostile_run() { # hostile_run TABLE COLUMN SETUP VALUE_SQL
	cp uarch.db "$T/hostile.db"
	sqlite3 "$T/hostile.db" "PRAGMA ignore_check_constraints = 1; PRAGMA foreign_keys = 0; $3
		UPDATE $1 SET $2 = $4 WHERE rowid = (SELECT min(rowid) FROM $1);"
	rm -rf "$T/victim" && cp -r out "$T/victim"
	"$GEN" gen -q --db "$T/hostile.db" --out "$T/victim" >/dev/null 2>"$T/err"
	rc=$?
	if [ $rc -ne 1 ]; then bad "hostile $1.$2 = $4: exit $rc, want 1"; return; fi
	if ! grep -q "table $1, row .*, column $2: " "$T/err"; then bad "hostile $1.$2: the error does not name it: $(head -c 300 "$T/err")"; return; fi
	if ! diff -r out "$T/victim" >/dev/null; then bad "hostile $1.$2: out/ changed"; return; fi
	if grep -q "$(printf '\033')" "$T/err"; then bad "hostile $1.$2: the error prints the escape raw"; return; fi
	ok
}
for t in $(sqlite3 uarch.db "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"); do
	setup=""
	[ "$t" = inherit ] && setup="INSERT INTO inherit VALUES ('zen1', '$F', 'zen2', 'a reason');"
	for c in $(sqlite3 uarch.db "SELECT name FROM pragma_table_info('$t') WHERE type = 'TEXT'"); do
		hostile_run "$t" "$c" "$setup" "coalesce($c, 'x') || ' */ int evil; /* '"
		hostile_run "$t" "$c" "$setup" "coalesce($c, 'x') || char(10) || '| forged | row |'"
		hostile_run "$t" "$c" "$setup" "coalesce($c, 'x') || char(27) || '[2J'"
	done
done
# Text the generator accepts (quotes, backslashes, one at the end, a
# #define, printf conversions) is data in the generated C: with each text
# column set to it in turn, the C files' tokens, string literals emptied,
# (the database's hash aside) are those of the files generated from the
# database as it is, and they
# still build with the kernel's flags. A column whose own format refuses
# the text (a name, a date, a URL) is refused by the generator instead.
c_tokens() { # c_tokens DIR: every generated C file's tokens, literals emptied
	for f in "$1/$F/copy_rule.c" "$1/$F/copy_rule.h" "$1/$F/tests/rule_tests.c" "$1/$F/tests/rule_tests.h"; do
		gcc -fpreprocessed -dD -E -P "$f" | sed -E 's/"([^"\\]|\\.)*"/""/g'
	done | sed -E 's/COPY_RULE_STAMP (!= )?0x[0-9a-f]+UL/COPY_RULE_STAMP \1(the database hash)/; s/out_stamp_[0-9a-f]{8}/out_stamp_(the database hash)/g'

}
# zen1 inherits, so that an inherit row's reason reaches a C string literal.
cp uarch.db "$T/quoted-base.db"
sqlite3 "$T/quoted-base.db" "INSERT INTO inherit VALUES ('zen1', '$F', 'zen2', 'a reason');"
"$GEN" gen -q --db "$T/quoted-base.db" --out "$T/quoted-base"
c_tokens "$T/quoted-base" >"$T/tokens.want"
payload="'x\" \\'' #define EVIL 1 %s%n \\'"
tokens_same=0 tokens_refused=0
for t in $(sqlite3 uarch.db "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"); do
	for c in $(sqlite3 uarch.db "SELECT name FROM pragma_table_info('$t') WHERE type = 'TEXT'"); do
		cp "$T/quoted-base.db" "$T/quoted.db"
		sqlite3 "$T/quoted.db" "PRAGMA ignore_check_constraints = 1; PRAGMA foreign_keys = 0;
			UPDATE $t SET $c = coalesce($c, 'x') || $payload WHERE rowid = (SELECT min(rowid) FROM $t);"
		rm -rf "$T/quoted"
		if "$GEN" gen -q --db "$T/quoted.db" --out "$T/quoted" 2>"$T/err"; then
			if c_tokens "$T/quoted" | cmp -s - "$T/tokens.want" &&
				cc -std=c99 -Wall -Wextra -Werror -pedantic -ffreestanding -mgeneral-regs-only -mno-red-zone -O2 -I"$T/quoted/$F" -c "$T/quoted/$F/copy_rule.c" -o "$T/quoted.o"; then
				tokens_same=$((tokens_same + 1))
			else
				bad "$t.$c with quotes, backslashes and a #define changes the generated C's tokens"
				c_tokens "$T/quoted" | diff - "$T/tokens.want" | head -5
			fi
		elif grep -q "table $t, row .*, column [a-z0-9_]*: " "$T/err"; then
			tokens_refused=$((tokens_refused + 1))
		else
			bad "$t.$c with quotes: gen failed without naming it: $(head -c 300 "$T/err")"
		fi
	done
done
echo "note: quoted text: the C's tokens unchanged for $tokens_same columns, refused by their format in $tokens_refused"
check "quoted text is data in the C of $tokens_same columns (its own format refuses it in $tokens_refused)" \
	test "$tokens_same" -ge 5
# The schema says the same where its CHECKs are on: each text column refuses
# a newline, a control character and a comment delimiter.
for t in $(sqlite3 uarch.db "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"); do
	for c in $(sqlite3 uarch.db "SELECT name FROM pragma_table_info('$t') WHERE type = 'TEXT'"); do
		for v in "char(10)" "char(27) || '[2J'" "' */ x'"; do
			cp uarch.db "$T/checked.db"
			sqlite3 "$T/checked.db" "INSERT INTO inherit VALUES ('zen1', '$F', 'zen2', 'a reason');
				UPDATE $t SET $c = coalesce($c, 'x') || $v WHERE rowid = (SELECT min(rowid) FROM $t);" \
				>/dev/null 2>"$T/err"
			if grep -q 'constraint failed' "$T/err"; then ok; else bad "the schema takes $t.$c = ... || $v"; fi
		done
	done
done
bad_case "a date that is not a date" "UPDATE rule SET measured_on = 'yesterday' WHERE uarch = 'zen2';" \
	"table rule, row (uarch='zen2', flavor='$F'), column measured_on: must be a day that exists"
bad_case "a day that does not exist" "UPDATE rule SET measured_on = '2026-02-30' WHERE uarch = 'zen2';" \
	"column measured_on: must be a day that exists"
bad_case "an empty hypervisor" "UPDATE rule SET hypervisor = '' WHERE uarch = 'zen2';" \
	"table rule, row (uarch='zen2', flavor='$F'), column hypervisor: is empty"
bad_case "an empty cpuid_limit" "UPDATE uarch SET cpuid_limit = '' WHERE name = 'zen1';" \
	"table uarch, row (name='zen1'), column cpuid_limit: is empty"
bad_case "text past the length limit" "UPDATE uarch SET example = printf('%.2000c', 'x') WHERE name = 'zen1';" \
	"table uarch, row (name='zen1'), column example: is 2000 bytes long"
bad_case "evidence that is a folder" "UPDATE rule SET evidence = 'evidence/rocketlake-2026-11-29' WHERE uarch = 'zen2';" \
	"column evidence: must be a regular file"
bad_case "a bare https://" "UPDATE rule SET evidence = 'https://' WHERE uarch = 'zen2';" \
	"column evidence: is not a well-formed URL"
# A database beside its own evidence/, one folder of which is a link out.
mkdir -p "$T/outside" "$T/sym/evidence" && echo x >"$T/outside/summary.md"
cp -r evidence/. "$T/sym/evidence/" && ln -s "$T/outside" "$T/sym/evidence/escape"
cp uarch.db "$T/sym/uarch.db"
sqlite3 "$T/sym/uarch.db" "UPDATE rule SET evidence = 'evidence/escape/summary.md' WHERE uarch = 'zen2';"
"$GEN" gen -q --db "$T/sym/uarch.db" --out "$T/sym/out" 2>"$T/err"
check "evidence through a symlink out of evidence/ is refused" grep -q \
	"table rule, row (uarch='zen2', flavor='$F'), column evidence: leaves evidence/ through a symbolic link" "$T/err"
bad_case "a vendor in lower case" "UPDATE uarch SET vendor = 'authenticamd' WHERE name = 'zen1';" \
	"table uarch, row (name='zen1'), column vendor: 'authenticamd' is not a CPUID vendor string"
bad_case "a vendor no CPU reports" "UPDATE uarch SET vendor = 'AuthenticAMB' WHERE name = 'zen1';" \
	"table uarch, row (name='zen1'), column vendor: 'AuthenticAMB' is not a CPUID vendor string"
bad_case "text that is not UTF-8" "UPDATE uarch SET example = CAST(X'41C3' AS TEXT) WHERE name = 'zen1';" \
	"table uarch, row (name='zen1'), column example: holds byte 0xc3"
# A database whose schema never said NOT NULL (another tool, an older schema).
"$GEN" dump | sed 's/^  vendor      TEXT NOT NULL /  vendor      TEXT /' >"$T/nonull.sql"
check "the schema edit for the NULL-vendor case applies" grep -q '^  vendor      TEXT CHECK' "$T/nonull.sql"
sqlite3 "$T/nonull.db" <"$T/nonull.sql"
sqlite3 "$T/nonull.db" "PRAGMA ignore_check_constraints = 1; UPDATE uarch SET vendor = NULL WHERE name = 'zen2';"
"$GEN" gen -q --db "$T/nonull.db" --out "$T/victim" >/dev/null 2>"$T/err"
rc=$?
check "a NULL vendor exits 1, not a crash" test $rc -eq 1
check "...naming the row" grep -q "table uarch, row (name='zen2'), column vendor: must not be NULL" "$T/err"
"$GEN" check --db "$T/nonull.db" >/dev/null 2>&1
check "...and check exits 1 too" test $? -eq 1
# A uarch table without its primary key (an older or hand-made schema) takes
# a second row of one name; the generated tests would define it twice.
"$GEN" dump | sed 's/^  name        TEXT PRIMARY KEY$/  name        TEXT/' >"$T/nokey.sql"
check "the schema edit for the duplicate-name case applies" grep -q '^  name        TEXT$' "$T/nokey.sql"
sqlite3 "$T/nokey.db" <"$T/nokey.sql"
sqlite3 "$T/nokey.db" "INSERT INTO uarch SELECT * FROM uarch WHERE name = 'zen2';"
rowids=$(sqlite3 "$T/nokey.db" "SELECT group_concat(rowid, ', ') FROM uarch WHERE name = 'zen2'")
rm -rf "$T/victim" && cp -r out "$T/victim"
"$GEN" gen -q --db "$T/nokey.db" --out "$T/victim" >/dev/null 2>"$T/err"
rc=$?
check "two entries of one name exit 1" test $rc -eq 1
check "...naming both rows" grep -qF "table uarch, row (name='zen2'), column name: 2 rows (rowid $rowids) hold this key" "$T/err"
check "...and write nothing" diff -r out "$T/victim"

# ---- a database that cannot be read says why ----
unreadable() { # unreadable NAME DB EXPECTED
	rm -rf "$T/victim" && cp -r out "$T/victim"
	"$GEN" gen -q --db "$2" --out "$T/victim" >/dev/null 2>"$T/err"
	rc=$?
	if [ $rc -ne 1 ]; then bad "$1: exit $rc, want 1"; return; fi
	if ! grep -qF -- "$3" "$T/err"; then bad "$1: no '$3' in: $(cat "$T/err")"; return; fi
	if grep -q 'schema version\|not an error' "$T/err"; then bad "$1: a misleading message: $(cat "$T/err")"; return; fi
	if ! diff -r out "$T/victim" >/dev/null; then bad "$1: out/ changed"; return; fi
	ok
}
head -c 5000 uarch.db >"$T/truncated.db"
unreadable "a truncated database" "$T/truncated.db" "the database is damaged"
head -c 16384 /dev/urandom >"$T/random.db"
unreadable "random bytes" "$T/random.db" "not a SQLite database"
cp uarch.db "$T/damaged.db"
printf '\015\377\377\377\377\377\377\377' | dd of="$T/damaged.db" bs=1 seek=4096 conv=notrunc 2>/dev/null
unreadable "a damaged page" "$T/damaged.db" "the database is damaged (*** in database main *** Page 2"
# A table that is not the schema's, with a name that needs quoting, is
# data like any other: gen and dump read it, and the dump still runs.
cp uarch.db "$T/odd.db"
sqlite3 "$T/odd.db" "CREATE TABLE \"we'ird\" (\"c\"\"ol\" TEXT, \"select\" INTEGER); INSERT INTO \"we'ird\" VALUES ('it''s', 1);"
check "a table named we'ird: gen runs" "$GEN" gen -q --db "$T/odd.db" --out "$T/odd"
check "...and so does dump" sh -c "'$GEN' dump --db '$T/odd.db' >'$T/odd.sql'"
check "...which holds its row" grep -qF "INSERT INTO \"we'ird\" VALUES('it''s',1);" "$T/odd.sql"
check "...and builds the same database again" sh -c "sqlite3 '$T/odd2.db' <'$T/odd.sql' &&
	'$GEN' dump --db '$T/odd2.db' >'$T/odd2.sql' && cmp '$T/odd.sql' '$T/odd2.sql'"
# A table no column of which can be read: the message says so, not "not an error".
cp uarch.db "$T/vt.db"
sqlite3 "$T/vt.db" "PRAGMA writable_schema = ON;
	INSERT INTO sqlite_schema VALUES ('table', 'vt', 'vt', 0, 'CREATE VIRTUAL TABLE vt USING nosuchmodule()');"
unreadable "a virtual table of a missing module" "$T/vt.db" "cannot dump the database: table vt: no columns to read"
cp uarch.db "$T/hot.db"
# A write killed mid-transaction leaves a hot journal: one larger than the
# page cache, so that it spills to the file before the kill.
( (echo "PRAGMA journal_mode=DELETE; PRAGMA cache_size=10; BEGIN; DELETE FROM cpuid_range;
	CREATE TABLE filler AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000)
	SELECT x, randomblob(200) AS b FROM c;"; sleep 5) |
	sqlite3 "$T/hot.db" >/dev/null 2>&1 & echo $! >"$T/hot.pid"; wait ) &
sleep 1
pkill -9 -f "sqlite3 $T/hot.db"
wait
if [ -s "$T/hot.db-journal" ]; then
	unreadable "an interrupted write" "$T/hot.db" "an interrupted write left $T/hot.db-journal"
	# gen opens read-only, so it cannot roll the journal back itself: the
	# message says how, and that way works.
	check "...and says how to roll it back" grep -qF "open the database read-write once to roll it back (sqlite3 $T/hot.db 'PRAGMA quick_check')" "$T/err"
	sqlite3 "$T/hot.db" 'PRAGMA quick_check' >/dev/null 2>&1
	check "...after which gen reads it" "$GEN" gen -q --db "$T/hot.db" --out "$T/hot-out"
else
	bad "the interrupted write left no journal to test with"
fi
cp uarch.db "$T/locked.db"
( (echo "PRAGMA journal_mode=DELETE; BEGIN EXCLUSIVE; SELECT 1;"; sleep 4) | sqlite3 "$T/locked.db" >/dev/null 2>&1 ) &
sleep 0.5
unreadable "a database another process holds" "$T/locked.db" "the database is locked by another process"
wait

summary
