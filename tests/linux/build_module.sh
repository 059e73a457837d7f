#!/bin/sh
# Builds the test module from a generated tree: copies DIR/kernel's
# copy_linux.S, copy_rule.c and copy_rule.h beside tests/linux/module/ into
# BUILD, and runs Kbuild there against the installed Debian headers
# (kernel_version.sh), with the kernel's own flags and objtool. The log is
# BUILD/build.log; exit 1 when the build fails.
# usage: tests/linux/build_module.sh DIR BUILD
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || { echo "usage: $0 DIR BUILD" >&2; exit 2; }
v=$("$HERE/kernel_version.sh") || exit 1
mkdir -p "$2" || exit 1
cp "$1/kernel/x86_64/copy_linux.S" "$1/kernel/copy_rule.c" "$1/kernel/copy_rule.h" \
   "$HERE/module/Kbuild" "$HERE/module/uarchcopy_main.c" "$HERE/module/uarchcopy_dev.h" "$2/" || exit 1
make -C "/usr/src/linux-headers-$v" M="$(cd "$2" && pwd)" modules >"$2/build.log" 2>&1
