#!/bin/sh
# make bench's last part (make bench-real alone): the drop-in library as a
# user meets it, against the C library. First build/preloaded-stream, under
# LD_PRELOAD, on a long stream of memcpy calls drawn from glibc
# bench-memcpy-random's SPEC CPU2017 sizes; then three of Debian's programs
# (sqlite3, python3, zstd), each timed by build/with-without with the
# library preloaded and without, in turns. Writes the figures also to
# BUILD/bench-real/stream.csv and programs.csv. Reports; asserts nothing
# about speed; fails where a program fails.
# usage: bench/preloaded/real.sh BUILD [--runs N] [--other LIB.so]
#   --runs N: each program's runs each way (default 5; the stream's rounds
#   are 4N + 1); --other: a third side, another library's memcpy in the
#   stream and LD_PRELOAD=LIB.so under the programs.
set -u
usage="usage: bench/preloaded/real.sh BUILD [--runs N] [--other LIB.so]   (or: make bench-real)"
[ $# -ge 1 ] && [ -d "$1" ] || { echo "$usage" >&2; exit 2; }
build=$(cd "$1" && pwd) && shift
runs=5 other=
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=${2:?$usage}; shift 2 ;;
	--other) other=${2:?$usage}; shift 2 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
case $runs in '' | *[!0-9]*) echo "$usage" >&2; exit 2 ;; esac
[ "$runs" -ge 1 ] && [ "$runs" -le 25 ] || { echo "bench/preloaded/real.sh: --runs takes 1..25" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
lib=$build/libuarchcopy.so
if [ -n "$other" ]; then
	[ -f "$other" ] || { echo "bench/preloaded/real.sh: no library $other" >&2; exit 2; }
	other=$(cd "$(dirname "$other")" && pwd)/$(basename "$other")
fi
for f in "$lib" "$build/preloaded-stream" "$build/with-without" "$build/bench-corpus"; do
	[ -f "$f" ] || { echo "bench/preloaded/real.sh: $f is not built (make bench-real)" >&2; exit 2; }
done
results=$build/bench-real
mkdir -p "$results" || exit 1
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

LD_PRELOAD=$lib "$build/preloaded-stream" --rounds $((4 * runs + 1)) ${other:+--other "$other"} \
	--csv "$results/stream.csv" || exit 1

# The programs are Debian's, where Debian installs them; elsewhere the
# first on PATH.
program() {
	if [ -x "/usr/bin/$1" ]; then echo "/usr/bin/$1"; else command -v "$1"; fi
}
# The compressor's input: 32 MiB of generated text, made here, untimed.
"$build/bench-corpus" "$T/corpus.txt" 32 || exit 1
echo "program,copy,measure,runs,seconds,seconds_without,ratio,ratio_least,ratio_greatest" >"$results/programs.csv"
"$build/with-without" --header "$runs" ${other:+--other "$other"}
failed=0
for name in sqlite3 python3 zstd; do
	bin=$(program "$name") || { printf '  %-10s not installed (make deps)\n' "$name"; continue; }
	case $name in
	sqlite3) set -- "$bin" :memory: ".read $here/sqlite.sql" ;;
	python3) set -- "$bin" "$here/copies.py" ;;
	# Both ways, one thread: level 3, zstd's default.
	zstd) set -- sh -c '"$0" -q -f -3 --single-thread -o "$1.zst" "$1" && "$0" -q -d -f -o "$1.out" "$1.zst"' \
		"$bin" "$T/corpus.txt" ;;
	esac
	"$build/with-without" --runs "$runs" ${other:+--other "$other"} --csv "$results/programs.csv" \
		"$name" "$lib" -- "$@" || failed=1
done
echo
exit $failed
