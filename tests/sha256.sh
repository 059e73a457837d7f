#!/bin/sh
# common/sha256.c against coreutils' sha256sum, at every length to 140
# (every tail of one and two blocks) and some long ones, and FIPS 180-2's
# million a's; on this CPU, and
# under qemu-x86_64 as EPYC-Rome, which QEMU runs without the SHA
# extensions, so that both the extensions' rounds (where this CPU has
# them) and the portable rounds are checked.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"
PROG=$ROOT/build/sha256_prefixes
QEMU=${QEMU_USER:-qemu-x86_64}
command -v "$QEMU" >/dev/null || { echo "sha256: $QEMU is missing (make deps installs qemu-user)" >&2; exit 2; }
head -c 1000000 /dev/zero | tr '\0' 'a' >"$T/a"
awk 'BEGIN { for (i = 0; i < 1048576; i++) printf "%c", 32 + (i * 131 + 7) % 95 }' >"$T/mixed"
lengths="$(seq 0 140) 4096 65535 65536 1048576"
for n in $lengths; do
	printf '%s %s\n' "$n" "$(head -c "$n" "$T/mixed" | sha256sum | cut -d' ' -f1)"
done >"$T/want"
echo "1000000 cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" >>"$T/want" # FIPS 180-2
# shellcheck disable=SC2086
{ "$PROG" "$T/mixed" $lengths && "$PROG" "$T/a" 1000000; } >"$T/here"
check "every length's digest, on this CPU" cmp "$T/here" "$T/want"
# shellcheck disable=SC2086
{ "$QEMU" -cpu EPYC-Rome "$PROG" "$T/mixed" $lengths && "$QEMU" -cpu EPYC-Rome "$PROG" "$T/a" 1000000; } \
	>"$T/portable" 2>/dev/null
check "every length's digest, the portable rounds (EPYC-Rome in QEMU)" cmp "$T/portable" "$T/want"
summary
