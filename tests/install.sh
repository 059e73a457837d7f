#!/bin/sh
# make install and make uninstall, into a temporary DESTDIR with
# PREFIX=/usr: the files, the library's SONAME and link chain, a program
# built against the installed library with pkg-config (shared and
# static), the installed uarchgen run from outside the checkout, the
# installed library preloaded into a real program, the man pages rendered;
# then uninstall leaves DESTDIR as it was. Once more with BINDIR, LIBDIR
# and MANDIR moved.
# usage: tests/install.sh   (needs what make builds)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"

D=$T/root
mkdir "$D"
check "make install DESTDIR PREFIX=/usr" make -s install DESTDIR="$D" PREFIX=/usr
U=$D/usr
for f in bin/uarchgen bin/uarchcopy-probe lib/libuarchcopy.so.1.0.0 lib/libuarchcopy.a lib/pkgconfig/uarchcopy.pc \
	share/man/man1/uarchgen.1 share/man/man1/uarchcopy-probe.1 share/man/man7/libuarchcopy.7 \
	share/uarchcopy/uarch.db; do
	check "it installed $f" test -f "$U/$f"
done
check "the programs are executable" test -x "$U/bin/uarchgen" -a -x "$U/bin/uarchcopy-probe"
check "libuarchcopy.so -> libuarchcopy.so.1 -> libuarchcopy.so.1.0.0" sh -c \
	"test \"\$(readlink '$U/lib/libuarchcopy.so')\" = libuarchcopy.so.1 && test \"\$(readlink '$U/lib/libuarchcopy.so.1')\" = libuarchcopy.so.1.0.0"
check "...whose SONAME is libuarchcopy.so.1" sh -c "readelf -d '$U/lib/libuarchcopy.so.1.0.0' | grep -q 'SONAME.*\\[libuarchcopy.so.1\\]'"
check "every template is installed" test "$(cd templates && find . -type f | wc -l)" -eq "$(cd "$U/share/uarchcopy/templates" && find . -type f | wc -l)"

# A program built against the installed library, as a user would.
pc() { PKG_CONFIG_PATH=$U/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D pkg-config "$@" uarchcopy; }
check "pkg-config knows it" pc --modversion
# shellcheck disable=SC2046
check "a program links it by pkg-config --cflags --libs" cc -O1 -fno-builtin "$ROOT/tests/copy_program.c" $(pc --cflags --libs) -o "$T/prog"
check "...needs libuarchcopy.so.1" sh -c "readelf -d '$T/prog' | grep -q 'NEEDED.*\\[libuarchcopy.so.1\\]'"
cc -O1 -fno-builtin "$ROOT/tests/copy_program.c" -o "$T/plain"
check "...runs the installed library's copies, and prints what the C library's print" sh -c \
	"LD_LIBRARY_PATH='$U/lib' UARCHCOPY_REPORT=1 '$T/prog' >'$T/prog.out' 2>'$T/prog.err' &&
	grep -q '^libuarchcopy: memcpy: Rule' '$T/prog.err' && '$T/plain' | cmp - '$T/prog.out'"
# shellcheck disable=SC2046
check "a static program links it by pkg-config --static" cc -O1 -fno-builtin -static "$ROOT/tests/copy_program.c" $(pc --cflags --libs --static) -o "$T/static"
check "...and runs its copies" sh -c "UARCHCOPY_REPORT=1 '$T/static' 2>&1 >/dev/null | grep -q '^libuarchcopy: memcpy: Rule'"
check "the installed library preloads into sqlite3" sh -c \
	"LD_PRELOAD='$U/lib/libuarchcopy.so.1' UARCHCOPY_REPORT=1 sqlite3 :memory: 'SELECT hex(zeroblob(40)) = hex(zeroblob(40));' >'$T/sq.out' 2>'$T/sq.err' &&
	test \"\$(cat '$T/sq.out')\" = 1 && grep -q '^libuarchcopy: memcpy: Rule' '$T/sq.err'"

# The installed uarchgen, outside the checkout: its data from share/.
check "the installed uarchgen runs its query from another directory" sh -c \
	"cd '$T' && '$U/bin/uarchgen' query >'$T/query.out' && grep -q '^zen3 ' '$T/query.out'"
check "...and generates out/ there, as the checkout's does" sh -c \
	"cd '$T' && '$U/bin/uarchgen' gen -q --out '$T/out' && diff -r '$ROOT/out' '$T/out'"
check "the installed probe answers --help" sh -c "'$U/bin/uarchcopy-probe' --help | grep -q '^usage: '"
for page in man1/uarchgen.1 man1/uarchcopy-probe.1 man7/libuarchcopy.7; do
	check "man -l renders $page without a warning" sh -c \
		"MANWIDTH=80 man --warnings -l '$U/share/man/$page' >'$T/page' 2>'$T/page.err' && test -s '$T/page' && ! test -s '$T/page.err'"
done
check "uarchgen(1) holds its --help's commands" grep -q 'rederive' "$U/share/man/man1/uarchgen.1"
check "libuarchcopy(7) lists the environment preload/uarchcopy.c reads" grep -q 'UARCHCOPY_STRATEGY=NAME' "$U/share/man/man7/libuarchcopy.7"

check "make uninstall" make -s uninstall DESTDIR="$D" PREFIX=/usr
check "...leaves DESTDIR as it was: empty" test -z "$(ls -A "$D")"

# The directories moved one by one.
check "make install with BINDIR, LIBDIR, MANDIR" make -s install DESTDIR="$D" PREFIX=/opt/uc BINDIR=/opt/uc/sbin \
	LIBDIR=/opt/uc/lib64 MANDIR=/opt/uc/doc/man
check "...puts each where asked" test -x "$D/opt/uc/sbin/uarchgen" -a -f "$D/opt/uc/lib64/libuarchcopy.a" \
	-a -f "$D/opt/uc/doc/man/man7/libuarchcopy.7" -a -f "$D/opt/uc/share/uarchcopy/uarch.db"
check "...with the pkg-config file saying so" grep -qx 'libdir=/opt/uc/lib64' "$D/opt/uc/lib64/pkgconfig/uarchcopy.pc"
check "...and make uninstall with them leaves nothing" sh -c "make -s uninstall DESTDIR='$D' PREFIX=/opt/uc BINDIR=/opt/uc/sbin \
	LIBDIR=/opt/uc/lib64 MANDIR=/opt/uc/doc/man && test -z \"\$(ls -A '$D')\""
summary
