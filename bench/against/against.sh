#!/bin/sh
# make bench-against BASE=REV: for each flavor, the routines out/ ships now
# against the ones out/ held at revision REV, in one program
# (bench/against/against.c): REV's copy.asm and copy_rule.c, built as make
# builds them, their symbols renamed base_... . Needs what make builds.
# Reports; asserts nothing about speed.
# The Makefile passes NASM, CC, KERNEL_CFLAGS (copy_rule.c's) and CFLAGS
# (the program's).
set -u
usage="usage: bench/against/against.sh REV   (or: make bench-against BASE=REV)"
case "${1:-}" in
-h | --help)
	echo "$usage"
	echo
	echo "Times, in turns in one process, each measured rule's routines as out/ ships them now and"
	echo "as out/ held them at revision REV, on the random-size workload and its sorted control:"
	echo "the medians of 61 rounds and the per-round ratio, now over REV and now over itself."
	exit 0 ;;
"" | -*)
	echo "$usage" >&2
	exit 2 ;;
esac
rev=$1
cd "$(dirname "$0")/../.." || exit 2
: "${NASM:=nasm}" "${CC:=cc}" "${KERNEL_CFLAGS:?the Makefile passes it: make bench-against BASE=REV}" "${CFLAGS:=-O2}"
if ! git rev-parse -q --verify "$rev^{commit}" >/dev/null 2>&1; then
	echo "bench/against/against.sh: '$rev' is not a revision of this repository" >&2
	exit 2
fi
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
git archive "$rev" out | tar -x -C "$T" || exit 1
for flavor in $(gen/uarchgen flavors | cut -d' ' -f1); do
	echo "$flavor:"
	base=$T/out/$flavor
	if [ ! -f "$base/x86_64/copy.asm" ] || [ ! -f "$base/copy_rule.c" ]; then
		echo "  $rev has no flavor $flavor"
		continue
	fi
	for o in copy.o copy_rule.o; do
		[ -f "build/$flavor/$o" ] || { echo "bench/against/against.sh: build/$flavor/$o is not built (make)" >&2; exit 2; }
	done
	$NASM -f elf64 "$base/x86_64/copy.asm" -o "$T/$flavor-copy.o" &&
		$CC $KERNEL_CFLAGS -c "$base/copy_rule.c" -o "$T/$flavor-rule.o" &&
		objcopy --prefix-symbols=base_ "$T/$flavor-copy.o" &&
		objcopy --prefix-symbols=base_ "$T/$flavor-rule.o" &&
		$CC $CFLAGS -Iout/$flavor bench/against/against.c common/text_poke.c common/workload.c \
			common/size_profile.c "build/$flavor/copy.o" "build/$flavor/copy_rule.o" "$T/$flavor-copy.o" \
			"$T/$flavor-rule.o" -o "$T/against-$flavor" -lm &&
		"$T/against-$flavor" "$rev" || exit 1
done
