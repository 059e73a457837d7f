#!/bin/sh
# Real programs on build/libuarchcopy.so: sqlite3 running a few thousand
# statements, python3 working on bytes and opening libraries with ctypes,
# git on a clone of this repository, tar and gzip over a tree, bash on
# strings, and coreutils' cp, ls and sort on a copy of the tree. Each runs
# without the library, with it under this CPU's rule, and with it forced
# to take each strategy of the flavor wherever that strategy can copy
# (UARCHCOPY_STRATEGY), so the vector paths, memmove's descending one
# included, run inside real programs. Every run must print what the run
# without the library printed, on stdout and on stderr, byte for byte.
# And every path to memcpy and memmove (tests/preload_paths.c) must lead
# past the library's stub.
# usage: tests/preload.sh   (needs build/libuarchcopy.so, build/no_write_exec, build/preloaded)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LIB=$ROOT/build/libuarchcopy.so
. "$ROOT/tests/lib.sh"
for tool in sqlite3 python3 git tar gzip bash cp ls sort; do
	command -v $tool >/dev/null || { bad "$tool is missing (make deps)"; summary; exit 1; }
done

# The library exports the C library's copies, and dlopen and dlmopen, and
# nothing else (preload/exports.map): memcpy and memmove are one stub that
# jumps through the pointer the constructor sets, and its uc_ symbols bind
# inside it, so the checked forms reach the chosen routine by that jump,
# not through the PLT.
check "the library exports memcpy, memmove, their _chk forms, dlopen and dlmopen only" test "$(nm -D --defined-only "$LIB" |
	awk '{ print $3 }' | LC_ALL=C sort | tr '\n' ' ')" = "__memcpy_chk __memmove_chk dlmopen dlopen memcpy memmove "

# Nothing on a program's stderr: the library writes there only where
# UARCHCOPY_REPORT asks it to, and then says what it ignored too.
check "without UARCHCOPY_REPORT the library writes nothing to stderr, bad values included" sh -c \
	"test -z \"\$(UARCHCOPY_ISA=wide UARCHCOPY_STRATEGY=none LD_PRELOAD='$LIB' env true 2>&1)\""
check "...with it, the report says what it ignored" sh -c "UARCHCOPY_ISA=wide UARCHCOPY_STRATEGY=none UARCHCOPY_REPORT=1 \
	LD_PRELOAD='$LIB' env true 2>&1 | sort -u | grep -c -e '^libuarchcopy: UARCHCOPY_ISA=wide: not gpr' \
	-e '^libuarchcopy: UARCHCOPY_STRATEGY=none: no such strategy' | grep -qx 2"
check "...memcpy and memmove are one stub, not the entry uc_memmove" test "$(nm "$LIB" | awk '$3 == "memcpy" ||
	$3 == "memmove" { print $1 }' | sort -u | wc -l)$(nm "$LIB" | awk '$3 == "memcpy" || $3 == "uc_memmove" { print $1 }' |
	sort -u | wc -l)" = 12
check "...and __memcpy_chk jumps to it without the PLT" sh -c "objdump -d --no-show-raw-insn '$LIB' |
	grep -A3 '<__memcpy_chk>:' | grep 'jmp' | grep -qv '@plt'"

# No code is written at run time: the library has no text relocation, and
# under a filter that refuses every mprotect with PROT_WRITE
# (build/no_write_exec, which first proves it refuses) it chooses the same
# routines as without it.
NWE=$ROOT/build/no_write_exec
check "the filter refuses to make a program's text writable" "$NWE" --self-test
check "the library has no text relocation" sh -c "! readelf -d '$LIB' | grep -q TEXTREL"
check "under the filter it chooses the routines it chooses without" sh -c \
	"test \"\$(UARCHCOPY_REPORT=1 '$NWE' env LD_PRELOAD='$LIB' true 2>&1 | grep routines)\" = \"\$(UARCHCOPY_REPORT=1 env LD_PRELOAD='$LIB' true 2>&1 | grep routines)\""
check "...and a forced strategy runs under it, the forced table installed as data" sh -c \
	"UARCHCOPY_STRATEGY=down UARCHCOPY_REPORT=1 '$NWE' env LD_PRELOAD='$LIB' true 2>&1 | grep -q 'UARCHCOPY_STRATEGY=down); routines table\$'"

# A call through a program's PLT takes one jump, as without the library:
# the constructor points the PLT slots of memcpy and memmove past its stub
# (preload/rebind.c), in a program bound lazily and in one linked with
# -z now, whose slots lie in pages made read-only after relocation. It
# writes data only: under a filter that refuses every mprotect with
# PROT_EXEC, so that no page written could run again, it still points them
# all; under the filter above, a slot it cannot make writable keeps the
# stub, and the program runs as before.
for bind in lazy now; do
	cc -O1 -fno-builtin -Wl,-z,$bind -Wl,-z,relro "$ROOT/tests/plt_slot.c" "$ROOT/bench/preloaded/plt_slot.c" \
		"$ROOT/common/jump_slot.c" -o "$T/plt_$bind" -ldl
done
check "without the library a program's PLT slots point at the C library" \
	test "$("$T/plt_now")" = "memcpy libc memmove libc"
if UARCHCOPY_REPORT=1 LD_PRELOAD=$LIB env true 2>&1 | grep -q "routines the C library's memmove"; then
	PAST=libc
else
	PAST=library
fi
for bind in lazy now; do
	check "under it, a program bound $bind: its slots point at the library's choice ($PAST), not at the stub" \
		test "$(LD_PRELOAD=$LIB "$T/plt_$bind")" = "memcpy $PAST memmove $PAST"
done
check "...the page of the -z now program's slot read-only again" test "$(LD_PRELOAD=$LIB "$T/plt_now" --page)" = "r--p"
check "the filter refusing PROT_EXEC refuses to make text executable again" "$NWE" --exec --self-test
check "...under it the library points every slot past the stub" \
	test "$("$NWE" --exec env LD_PRELOAD="$LIB" "$T/plt_now")" = "memcpy $PAST memmove $PAST"
check "under the filter refusing PROT_WRITE, a slot of -z now keeps the stub" \
	test "$("$NWE" env LD_PRELOAD="$LIB" "$T/plt_now")" = "memcpy stub memmove stub"
check "...and the report says so" sh -c "UARCHCOPY_REPORT=1 '$NWE' env LD_PRELOAD='$LIB' '$T/plt_now' 2>&1 |
	grep -q '^libuarchcopy: 0 slots of memcpy and memmove point past the stub; 2 left on it'"
check "...while a lazy program's slots, writable, point past it" \
	test "$("$NWE" env LD_PRELOAD="$LIB" "$T/plt_lazy")" = "memcpy $PAST memmove $PAST"

# Every other path to memcpy and memmove leads past the stub too
# (tests/preload_paths.c): a program's and its libraries' GOT slots, through
# which code takes the address and calls without the PLT (-fno-plt), and
# the pointers their static initializers hold, const and not; the PLT and
# GOT slots of libraries opened after the start, by dlopen with a path
# (lazily and not), by name and by dlmopen(LM_ID_BASE); and each address
# is one value, in every object, as C wants. A program built without
# -fPIE that takes the address keeps its PLT entry as the address
# everywhere, as without the library, its PLT slot behind it past the
# stub. A library the dynamic linker finds along the caller's RUNPATH, or
# by $ORIGIN, loads as without the library (the C library's dlopen
# called with the caller's return address), on the stub until the next
# dlopen, past it after. Controls: under the filter refusing PROT_WRITE,
# the addresses all stay the stub, one value still; the library linked
# without its dlopen and dlmopen leaves the libraries opened later on the
# stub.
P=$T/paths
mkdir -p "$P/rp" "$P/control"
paths_lib() { # paths_lib NAME FILE FLAGS...: tests/preload_paths_lib.c as a library exporting NAME
	name=$1 file=$2
	shift 2
	cc -O1 -fno-builtin -fPIC -shared -DPATHS_LIB="$name" "$@" "$ROOT/tests/preload_paths_lib.c" -o "$file"
}
paths_lib paths_call "$P/libpaths_call.so"
paths_lib paths_take "$P/libpaths_take.so" -DTAKE -Wl,-z,now
paths_lib paths_late_call "$P/libpaths_late_call.so"
paths_lib paths_late_take "$P/libpaths_late_take.so" -DTAKE -Wl,-z,now
paths_lib paths_named "$P/libpaths_named.so" -DTAKE
paths_lib paths_base "$P/libpaths_base.so"
paths_lib paths_rp "$P/rp/libpaths_rp.so"
paths_lib paths_origin "$P/libpaths_origin.so" -DTAKE
for form in "paths -fno-plt -Wl,-z,now" "paths_entry -fno-pie -no-pie" "paths_runpath -Wl,-rpath,$P/rp,--enable-new-dtags"; do
	# shellcheck disable=SC2086
	set -- $form
	out=$1
	shift
	cc -O1 -fno-builtin "$@" "$ROOT/tests/preload_paths.c" "$ROOT/common/jump_slot.c" -L"$P" -lpaths_call -lpaths_take -ldl -o "$P/$out"
done
sed '/dlm*open;/d' "$ROOT/preload/exports.map" >"$P/control/exports.map"
cc -shared -Wl,-z,now -Wl,--version-script="$P/control/exports.map" "$ROOT/build/lib/uarchcopy-shared-all.o" \
	-o "$P/control/libuarchcopy.so"
for form in paths paths_entry; do
	check "without the library $form's paths all lead to the C library" sh -c \
		"env LD_LIBRARY_PATH='$P' '$P/$form' libc '$P' >'$T/log.paths'; tail -1 '$T/log.paths' | grep -Eq '^[0-9]+ paths, 0 astray; the address one\$'"
done
check "under it, every path leads to the library's choice ($PAST): GOT slots, pointers, PLT slots, libraries opened later" \
	sh -c "env LD_LIBRARY_PATH='$P' LD_PRELOAD='$LIB' '$P/paths' $PAST '$P' | tail -1 | grep -qx '30 paths, 0 astray; the address one'"
check "...and memcpy's and memmove's addresses are one in the program and in each library" sh -c \
	"env LD_LIBRARY_PATH='$P' LD_PRELOAD='$LIB' '$P/paths' $PAST '$P' | grep -Ec '^(program|paths_take|paths_late_take|paths_named) (address-in-code|const-initializer|initializer) mem(cpy|move) $PAST\$' | grep -qx 24"
check "a program built without -fPIE: the addresses its PLT entry, as without the library, every slot past the stub" \
	sh -c "env LD_LIBRARY_PATH='$P' LD_PRELOAD='$LIB' '$P/paths_entry' $PAST '$P' | tail -1 | grep -qx '34 paths, 0 astray; the address one'"
check "libraries found along the caller's RUNPATH and by \$ORIGIN load as without the library" sh -c \
	"env LD_LIBRARY_PATH='$P' '$P/paths_runpath' libc '$P' --runpath | tail -1 | grep -qx '32 paths, 0 astray; the address one'"
env LD_LIBRARY_PATH="$P" LD_PRELOAD="$LIB" "$P/paths_runpath" $PAST "$P" --runpath >"$T/runpath" 2>&1
check "...under it too, on the stub until the next dlopen" \
	test "$(grep -c ' stub (before)$' "$T/runpath")" -eq 8
check "...and past it after" grep -qx '32 paths, 0 astray; the address one' "$T/runpath"
check "control: under the filter refusing PROT_WRITE the GOT slots and pointers keep the stub, and the check fails on 24" \
	sh -c "! '$NWE' env LD_LIBRARY_PATH='$P' LD_PRELOAD='$LIB' '$P/paths' $PAST '$P' >'$T/nwe' 2>&1 &&
	tail -1 '$T/nwe' | grep -qx '30 paths, 24 astray; the address one'"
check "control: the library without its dlopen and dlmopen leaves the libraries opened later on the stub: fails on 16" \
	sh -c "! env LD_LIBRARY_PATH='$P' LD_PRELOAD='$P/control/libuarchcopy.so' '$P/paths' $PAST '$P' >'$T/control' 2>&1 &&
	tail -1 '$T/control' | grep -qx '30 paths, 16 astray; the address not one'"

# The sqlite3 script: a table of 2000 rows with text and blobs, updates,
# an index, queries that sort and group, a vacuum and an integrity check.
awk 'BEGIN {
	print "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, data BLOB, x REAL);"
	print "BEGIN;"
	for (i = 1; i <= 2000; i++)
		printf "INSERT INTO t VALUES (%d, %c%s-%d%c, randomblob(0), %d.5);\n", i, 39, substr("abcdefghij", i % 10 + 1), i * 7919 % 10007, 39, i % 113
	print "COMMIT;"
	for (i = 1; i <= 400; i++)
		printf "UPDATE t SET data = zeroblob(%d) || CAST(name AS BLOB), name = name || %c/%d%c WHERE id %% 400 = %d;\n", (i * 37) % 5000, 39, i, 39, i % 400
	for (i = 1; i <= 300; i++)
		printf "SELECT count(*), sum(length(data)), max(name) FROM t WHERE x > %d;\n", i % 113
	print "CREATE INDEX t_name ON t (name);"
	print "SELECT group_concat(substr(name, 1, 4), \",\") FROM (SELECT name FROM t ORDER BY name DESC LIMIT 50);"
	print "SELECT hex(substr(data, -8)) FROM t WHERE id % 97 = 0 ORDER BY name;"
	print "DELETE FROM t WHERE id % 3 = 0;"
	print "VACUUM;"
	print "PRAGMA integrity_check;"
	print "SELECT count(*), sum(length(data)), total(x) FROM t;"
	print "SELECT * FROM no_such_table;"
}' >"$T/script.sql"
cat >"$T/bytes.py" <<'PY'
import hashlib, zlib
h = hashlib.sha256()
b = bytes(range(256)) * 600
for n in (1, 7, 31, 32, 33, 63, 64, 65, 255, 4096, 65537):
    h.update(b[n:n * 3] + b[:n])
a = bytearray(b)
for k in range(1, 400, 7):
    a[k:k + 5000] = a[k + 3:k + 5003]      # memmove down
    a[k + 9:k + 3009] = a[k:k + 3000]      # memmove up
    del a[k * 3:k * 3 + k]
    a[k:k] = b[:k * 5]
h.update(a)
m = memoryview(a)
h.update(bytes(m[100:70000]) + bytes(m[::3][:9000]))
h.update(zlib.decompress(zlib.compress(bytes(a), 6)))
print(len(a), h.hexdigest())
# Libraries opened at run time: by name, and one that is not there, whose
# error is the dynamic linker's.
import ctypes, sys
z = ctypes.CDLL("libz.so.1")
z.crc32.restype = ctypes.c_ulong
print("crc32", z.crc32(0, bytes(a), len(a)) == zlib.crc32(bytes(a)))
try:
    ctypes.CDLL("libuarchcopy-absent.so.9")
except OSError as e:
    print(e, file=sys.stderr)
PY
# bash on strings: substrings, replacement, concatenation, arrays.
cat >"$T/strings.bash" <<'SH'
s=
for i in $(seq 1 3000); do s="$s${i}x"; done
t=${s//x/-}
a=()
for ((i = 0; i < ${#t}; i += 97)); do a+=("${t:i:61}"); done
printf '%s\n' "${#s}" "${#t}" "${#a[@]}" "${a[7]}" "${a[-1]}"
printf '%s\n' "${a[@]}" | sha256sum
echo "bash: to stderr" >&2
SH
# Numbers and words for sort, a few thousand lines.
awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "%d %s%d\n", (i * 7919) % 10007, substr("qwertyuiop", i % 10 + 1), i }' >"$T/words"

# A snapshot of this repository, taken once: git and tar work on it, so
# that a commit or an edit while the test runs changes no output. Its last
# 25 commits, and its files, without the evidence folders, whose run
# archives grow with every core measured (some 150 MB of them made each of
# the 18 runs below take 30 s on a 2-CPU machine, and the group 4.5
# minutes): git clones, logs and checks those commits, and tar and gzip
# pack those files, about 11 MB.
head=$(git -C "$ROOT" symbolic-ref -q HEAD || echo HEAD)
git init -q --bare "$T/origin.git"
git -C "$ROOT" fast-export --full-tree --max-count=25 --refspec="$head:refs/heads/snapshot" "$head" -- . \
	':(exclude)evidence' | git -C "$T/origin.git" fast-import --quiet
git -C "$T/origin.git" symbolic-ref HEAD refs/heads/snapshot
mkdir "$T/src" && git -C "$ROOT" archive HEAD -- . ':(exclude)evidence' | tar -xf - -C "$T/src"

# run DIR: every program once, under the environment the caller set; each
# one's stdout into DIR/NAME.out, its stderr into DIR/NAME.err.
PROGRAMS="sqlite3 python3 git tar bash coreutils"
run() {
	mkdir -p "$1"
	rm -f "$T/db.sqlite"
	sqlite3 "$T/db.sqlite" <"$T/script.sql" >"$1/sqlite3.out" 2>"$1/sqlite3.err"
	python3 "$T/bytes.py" >"$1/python3.out" 2>"$1/python3.err"
	rm -rf "$T/clone"
	{ git clone -q "$T/origin.git" "$T/clone" && git -C "$T/clone" log --stat -25 &&
		git -C "$T/clone" fsck --full && git -C "$T/clone" archive HEAD | sha256sum; } >"$1/git.out" 2>"$1/git.err"
	{ tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - -C "$T/src" . |
		gzip -n -6 >"$T/tree.tar.gz" && sha256sum <"$T/tree.tar.gz" && rm -rf "$T/x" && mkdir "$T/x" &&
		gzip -dc "$T/tree.tar.gz" | tar -xf - -C "$T/x" && (cd "$T/x" && find . -type f | LC_ALL=C sort | xargs sha256sum); } \
		>"$1/tar.out" 2>"$1/tar.err"
	bash "$T/strings.bash" >"$1/bash.out" 2>"$1/bash.err"
	# shellcheck disable=SC2012 # ls is the program under test
	(rm -rf "$T/copy" && cp -r "$T/src" "$T/copy" && cd "$T/copy" && ls -lR --time-style=+ . | sed '/^total /d' &&
		LC_ALL=C sort -k2 "$T/words" | sha256sum && sort -n -s "$T/words" | sha256sum && sort -u "$T/words" | tail -3 &&
		ls no_such_file) >"$1/coreutils.out" 2>"$1/coreutils.err"
}

run "$T/plain"
check "the programs ran" sh -c "cd '$T/plain' && for p in $PROGRAMS; do test -s \$p.out || exit 1; done"
check "...and wrote to stderr where they were made to: sqlite3, python3, bash, ls" sh -c \
	"cd '$T/plain' && test -s sqlite3.err -a -s python3.err -a -s bash.err -a -s coreutils.err"
check "sqlite3's integrity check passed" grep -qx ok "$T/plain/sqlite3.out"
check "python3 opened libz by name and ran its crc32" grep -qx 'crc32 True' "$T/plain/python3.out"
check "the library loads and reports its rule" sh -c \
	"UARCHCOPY_REPORT=1 LD_PRELOAD='$LIB' env true 2>&1 | grep -q '^libuarchcopy: memcpy: Rule {'"
# Linked in statically instead: the archive's memcpy and memmove take the
# C library's place, IFUNC symbols bound at the program's start, and its
# constructor installs the rule they were resolved from.
check "a program links build/libuarchcopy.a statically" \
	cc -O1 -fno-builtin -static "$ROOT/tests/copy_program.c" "$ROOT/build/libuarchcopy.a" -o "$T/static"
check "...its copies are the library's" sh -c "UARCHCOPY_REPORT=1 '$T/static' 2>&1 | grep -q '^libuarchcopy: memcpy: Rule {'"
cc -O1 -fno-builtin "$ROOT/tests/copy_program.c" -o "$T/libc-only"
check "...and print what the C library's print" sh -c "test \"\$('$T/static' 2>/dev/null)\" = \"\$('$T/libc-only')\""
check "...and nothing on stderr, a bad value included, where the report is not asked for" sh -c \
	"test -z \"\$(UARCHCOPY_ISA=wide UARCHCOPY_STRATEGY=none '$T/static' 2>&1 >/dev/null)\""
check "...its memcpy and memmove are IFUNC symbols, resolved to the installed rule's routine" sh -c \
	"nm '$T/static' | grep -q ' i memmove\$' && UARCHCOPY_REPORT=1 '$T/static' 2>&1 | grep -q '; routines [a-z0-9_]*\$'"
check "...chosen the same under the filter, and a forced strategy too" sh -c \
	"test \"\$(UARCHCOPY_REPORT=1 '$NWE' '$T/static' 2>&1)\" = \"\$(UARCHCOPY_REPORT=1 '$T/static' 2>&1)\" &&
	UARCHCOPY_STRATEGY=small UARCHCOPY_REPORT=1 '$NWE' '$T/static' 2>&1 | grep -q 'UARCHCOPY_STRATEGY=small); routines table\$'"
# The static library has no C library memmove to defer to: its stand-in
# (preload/stand_in.c) copies an overlap down with the widest descending
# loop the rule may run, and every overlap either way is right under each
# isa (control: the loop taken for an overlap of the other way fails it).
check "a static program's overlapping memmoves are right" \
	cc -O1 -fno-builtin -static "$ROOT/tests/overlap_sweep.c" "$ROOT/build/libuarchcopy.a" -o "$T/sweep"
for isa in gpr avx2 avx512; do
	check "...under UARCHCOPY_ISA=$isa" sh -c "UARCHCOPY_ISA=$isa '$T/sweep' | grep -q '^300 overlaps right\$'"
done
check "...its report names the descending copy, none wider than the isa" sh -c \
	"UARCHCOPY_ISA=gpr UARCHCOPY_REPORT=1 '$T/sweep' 2>&1 | grep -q 'rep movsb, or down where the destination lies above'"
if grep -qw avx2 /proc/cpuinfo; then
	check "...and a vector loop where the CPU has one" sh -c \
		"UARCHCOPY_REPORT=1 '$T/sweep' 2>&1 | grep -Eq 'rep movsb, or avx(2|512)_down where the destination lies above'"
fi
LD_PRELOAD=$LIB run "$T/rule"
for p in $PROGRAMS; do
	check "$p under the library prints what it printed without, on stdout and stderr" \
		sh -c "cmp '$T/plain/$p.out' '$T/rule/$p.out' && cmp '$T/plain/$p.err' '$T/rule/$p.err'"
done
check "a forced strategy reports itself forced, on this CPU's entry" sh -c \
	"UARCHCOPY_STRATEGY=down UARCHCOPY_REPORT=1 LD_PRELOAD='$LIB' env true 2>&1 | grep -q ', forced: UARCHCOPY_STRATEGY=down); routines table\$'"
# Which copy a call runs, read from the memmove entry's first instruction
# (build/preloaded): on a core with no evidence the C library's own, so
# that the library never makes a program slower than it was; on a measured
# core, or under a forced strategy, the library's.
PRELOADED=$ROOT/build/preloaded
UARCHCOPY_REPORT=1 LD_PRELOAD=$LIB "$PRELOADED" --rounds 1 >"$T/where" 2>&1
if grep -q 'baseline: no evidence' "$T/where"; then
	check "this core has no evidence: the entry and the PLT slot lead to the C library" grep -q 'entry jumps to libc\.so\.6; this program.s PLT slot of memcpy points into libc\.so\.6$' "$T/where"
	check "...and the report says so" grep -q "routines the C library's memmove (no evidence for this core)\$" "$T/where"
elif grep -q 'bands: \[0\.\. F*\] }' "$T/where"; then
	check "this core's measured table is every copy forward: the entry and the PLT slot lead to the C library" \
		grep -q 'entry jumps to libc\.so\.6; this program.s PLT slot of memcpy points into libc\.so\.6$' "$T/where"
	check "...and the report says so" grep -q "routines the C library's memmove (this core's measured table is every copy forward)\$" "$T/where"
else
	check "this core's rule: the entry jumps inside the library, where the PLT slot points" grep -q 'entry jumps to libuarchcopy\.so; this program.s PLT slot of memcpy points into libuarchcopy\.so$' "$T/where"
fi
# Strategy libc, and memmove's overlaps, reach the C library's memmove:
# tests/count_memmove.c, preloaded after the library, is what its
# dlsym(RTLD_NEXT) finds, and counts the calls it passes on.
cc -O1 -shared -fPIC "$ROOT/tests/count_memmove.c" -o "$T/count.so" -ldl
cc -O1 -fno-builtin "$ROOT/tests/overlap_program.c" -o "$T/overlap"
"$T/overlap" overlap >"$T/sum.plain.overlap"
check "overlapping copies of a copy that goes up reach the C library's memmove" sh -c \
	"test \"\$(UARCHCOPY_STRATEGY=forward LD_PRELOAD='$LIB $T/count.so' '$T/overlap' overlap 2>&1 >/dev/null | grep count_memmove)\" = 'count_memmove: 10 calls'"
check "...and copy as it does" sh -c "UARCHCOPY_STRATEGY=forward LD_PRELOAD='$LIB $T/count.so' '$T/overlap' overlap 2>/dev/null | cmp -s - '$T/sum.plain.overlap'"
check "...disjoint ones run the library's own (the control)" sh -c \
	"test \"\$(UARCHCOPY_STRATEGY=forward LD_PRELOAD='$LIB $T/count.so' '$T/overlap' disjoint 2>&1 >/dev/null | grep count_memmove)\" = 'count_memmove: 0 calls'"
check "memcpy is the library's memmove: under a copy that goes up, an overlapping memcpy copies as memmove does" sh -c \
	"UARCHCOPY_STRATEGY=forward LD_PRELOAD='$LIB' '$T/overlap' overlap memcpy | cmp -s - '$T/sum.plain.overlap'"
check "a table of strategy libc sends disjoint ones there too" sh -c \
	"test \"\$(UARCHCOPY_STRATEGY=libc LD_PRELOAD='$LIB $T/count.so' '$T/overlap' disjoint 2>&1 >/dev/null | grep count_memmove)\" = 'count_memmove: 10 calls'"
check "a forced strategy: the entry jumps inside the library, where the PLT slot points" sh -c \
	"UARCHCOPY_STRATEGY=forward LD_PRELOAD='$LIB' '$PRELOADED' --rounds 1 | grep -q 'entry jumps to libuarchcopy\.so; this program.s PLT slot of memcpy points into libuarchcopy\.so\$'"
check "without the library the timer refuses to run" sh -c "'$PRELOADED' --rounds 1 >/dev/null 2>&1; test \$? -eq 2"
LD_PRELOAD=$LIB "$PRELOADED" --rounds 1 --processes 3 >"$T/processes" 2>&1
check "over several processes the timer prints their median and range" \
	grep -Eq '^preloaded: memcpy / the C library.s memcpy, random sizes [0-9.]+ \([0-9.]+\.\.[0-9.]+\), sorted control [0-9.]+$' "$T/processes"
check "...and the targets read the medians" sh -c "grep -q 'over 3 processes' '$T/processes' && grep -Eq '^  random sizes, preloaded memcpy / C library +[0-9.]+ ' '$T/processes'"
check "...memmove where the ranges overlap: a row a length, 64 bytes to 4 MiB, 9 distances, - where they do not" sh -c \
	"test \$(grep -Ec '^  [0-9]+( +([0-9]+\.[0-9]{3}|-)){9} *\$' '$T/processes') -eq 8"
check "...and memcpy on make bench's grid: a row a length below 8 MiB, 13 distances, the points lost" sh -c \
	"test \$(grep -Ec '^  [0-9]+( +[0-9]+\.[0-9]{2}[* ]){13}\$' '$T/processes') -eq 17 && grep -Eq '^  [0-9]+ points lost\$' '$T/processes'"
check "a count of processes out of range is refused" sh -c \
	"LD_PRELOAD='$LIB' '$PRELOADED' --processes 0 >/dev/null 2>&1; test \$? -eq 2 && LD_PRELOAD='$LIB' '$PRELOADED' --processes 32 >/dev/null 2>&1; test \$? -eq 2"
for s in $(sed -n 's/^\tX(UC_STRATEGY_[A-Z0-9_]*, "\([a-z0-9_]*\)",.*/\1/p' "$ROOT/out/user/copy_rule.h"); do
	UARCHCOPY_STRATEGY=$s LD_PRELOAD=$LIB run "$T/$s"
	for p in $PROGRAMS; do
		check "$p with every copy $s prints the same, on stdout and stderr" \
			sh -c "cmp '$T/plain/$p.out' '$T/$s/$p.out' && cmp '$T/plain/$p.err' '$T/$s/$p.err'"
	done
done
summary
