#!/bin/sh
# Builds Linux VERSION (6.1 or 6.12) on the generated copies: Debian's
# linux-source-VERSION, unpacked once into build/linux-VERSION/src, takes
# PATCH (gen --linux --linux-version VERSION's linux/uarchcopy.patch, or a
# control's copy of it); a kernel configured from tinyconfig,
# tests/linux/tree.config and tests/linux/tree-VERSION.config is built in
# build/linux-VERSION/obj (bzImage and modules); the log is
# build/linux-VERSION/build.log.
#
# The tree is kept between runs. The first run applies PATCH at the tree's
# root with patch -p1, as docs/vendoring.md says; a later run applies it to
# pristine copies of the files it changes (build/linux-VERSION/pristine) and copies
# into the tree only the files that differ, so that make rebuilds only what
# changed. Exit 1 when the patch does not apply or the build fails, 2 when
# something it needs is missing.
# usage: tests/linux/tree_build.sh VERSION PATCH
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
if [ "${1:-}" = "--help" ]; then
	sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'
	exit 0
fi
[ $# -eq 2 ] && [ -f "$2" ] || { echo "usage: $0 VERSION PATCH" >&2; exit 2; }
V=$1
[ -f "$HERE/tree-$V.config" ] || { echo "tree_build.sh: no Linux $V here (tests/linux/tree-$V.config)" >&2; exit 2; }
PATCH=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
B=$ROOT/build/linux-$V
TARBALL=${LINUX_SOURCE:-/usr/src/linux-source-$V.tar.xz}
for tool in patch make gcc flex bison bc xz; do
	command -v $tool >/dev/null || { echo "tree_build.sh: $tool is missing (make deps)" >&2; exit 2; }
done
[ -f "$TARBALL" ] || { echo "tree_build.sh: $TARBALL is missing (make deps installs linux-source-$V)" >&2; exit 2; }
[ -f /usr/include/gelf.h ] || { echo "tree_build.sh: libelf's headers are missing, objtool needs them (make deps)" >&2; exit 2; }
mkdir -p "$B" || exit 2
exec 9>"$B/lock"
flock 9

# The files PATCH changes (not those it adds), as paths in the tree.
changed_files() { sed -n 's|^--- a/||p' "$PATCH"; }

# unpack: the tree, once; an interrupted unpack leaves no tree.
if [ ! -f "$B/src/.unpacked" ]; then
	echo "unpacking $TARBALL into build/linux-$V/src"
	rm -rf "$B/src" "$B/src.tmp" "$B/obj" "$B/pristine" && mkdir -p "$B/src.tmp" &&
		tar -xJf "$TARBALL" -C "$B/src.tmp" --strip-components=1 && touch "$B/src.tmp/.unpacked" &&
		mv "$B/src.tmp" "$B/src" || { echo "tree_build.sh: cannot unpack $TARBALL" >&2; exit 1; }
fi

# apply: patch -p1 on a tree that has taken no patch yet; else the patch on
# pristine copies, and the files that differ copied into the tree.
if [ ! -f "$B/src/.patched" ]; then
	for f in $(changed_files); do
		mkdir -p "$B/pristine/$(dirname "$f")" && cp "$B/src/$f" "$B/pristine/$f" || exit 1
	done
	# A patch that half applies leaves no tree: the next run unpacks again.
	patch -p1 -s -d "$B/src" <"$PATCH" ||
		{ rm -f "$B/src/.unpacked"; echo "tree_build.sh: the patch does not apply to Linux $V" >&2; exit 1; }
	touch "$B/src/.patched"
else
	S=$B/stage
	rm -rf "$S" && mkdir -p "$S" || exit 1
	for f in $(changed_files); do
		[ -f "$B/pristine/$f" ] || tar -xJf "$TARBALL" -C "$B/pristine" --strip-components=1 "linux-source-$V/$f" || exit 1
		mkdir -p "$S/$(dirname "$f")" && cp "$B/pristine/$f" "$S/$f" || exit 1
	done
	patch -p1 -s -d "$S" <"$PATCH" || { echo "tree_build.sh: the patch does not apply to Linux $V" >&2; exit 1; }
	(cd "$S" && find . -type f) | while read -r f; do
		cmp -s "$S/$f" "$B/src/$f" || { mkdir -p "$(dirname "$B/src/$f")" && cp "$S/$f" "$B/src/$f"; } || exit 1
	done || exit 1
fi

# configure: tinyconfig, tree.config and tree-VERSION.config, again only
# when they changed.
CONFIG=$B/tree.config
cat "$HERE/tree.config" "$HERE/tree-$V.config" >"$CONFIG" || exit 2
if ! cmp -s "$CONFIG" "$B/obj/.tree.config"; then
	mkdir -p "$B/obj" &&
		make -s -C "$B/src" O="$B/obj" tinyconfig >"$B/config.log" 2>&1 &&
		"$B/src/scripts/kconfig/merge_config.sh" -m -O "$B/obj" "$B/obj/.config" "$CONFIG" >>"$B/config.log" 2>&1 &&
		make -s -C "$B/src" O="$B/obj" olddefconfig >>"$B/config.log" 2>&1 ||
		{ echo "tree_build.sh: configuring failed (build/linux-$V/config.log)" >&2; exit 1; }
	# Every option asked for must be set as asked: one its dependencies
	# refuse is dropped by olddefconfig without a word.
	missing=$(grep '^CONFIG_' "$CONFIG" | while read -r line; do
		case $line in
		*=n) grep -q "^# ${line%=n} is not set" "$B/obj/.config" || echo "$line" ;;
		*) grep -qx "$line" "$B/obj/.config" || echo "$line" ;;
		esac
	done)
	[ -z "$missing" ] || { echo "tree_build.sh: the configuration refused:" $missing >&2; exit 1; }
	cp "$CONFIG" "$B/obj/.tree.config"
fi

# build, with a line of progress a minute.
make -C "$B/src" O="$B/obj" -j"$(nproc)" bzImage modules >"$B/build.log" 2>&1 &
pid=$!
start=$(date +%s)
while kill -0 $pid 2>/dev/null; do
	sleep 5
	t=$(($(date +%s) - start))
	[ $((t % 60)) -lt 5 ] && [ $t -ge 60 ] &&
		echo "building Linux $V: $t s, $(grep -c '^  CC ' "$B/build.log") files compiled" >&2
done
wait $pid || { echo "tree_build.sh: the build failed (build/linux-$V/build.log):" >&2; grep -m5 -B2 'Error\|error:' "$B/build.log" >&2; exit 1; }
