#!/bin/sh
# Flavor is data: a copy of uarch.db with a second, throwaway flavor (its row,
# its routine list, one measured rule) generates, passes `uarchgen check`,
# assembles to one program in both syntaxes, and passes its generated tests,
# with no change to C or templates. Its files name only the routines it lists.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=$ROOT/gen/uarchgen
. "$ROOT/tests/lib.sh"

cp uarch.db "$T/uarch.db" && ln -s "$ROOT/evidence" "$T/evidence"
sqlite3 "$T/uarch.db" "
	INSERT INTO flavor (name, what, isa, red_zone) VALUES ('scratch', 'a throwaway flavor for this test', 'gpr', 1);
	INSERT INTO flavor_routine (flavor, routine) VALUES
		('scratch', 'memcpy'), ('scratch', 'copy_forward'), ('scratch', 'copy_down'), ('scratch', 'copy_small'),
		('scratch', 'copy_strategy');
	INSERT INTO rule (uarch, flavor, above_max, below_max, align_dst, evidence, method, measured_on)
		VALUES ('zen3', 'scratch', 47, 16, 16, 'https://example.org/scratch', 'made up for this test', '2026-11-30');
	INSERT INTO rule_band (uarch, flavor, length_lo, length_hi, zero, above, near, below, elsewhere) VALUES
		('zen3', 'scratch', 0, 32, 'small', 'small', 'small', 'small', 'small'),
		('zen3', 'scratch', 33, 63, 'forward', 'forward', 'forward', 'forward', 'forward'),
		('zen3', 'scratch', 64, NULL, 'forward_aligned', 'down', 'forward_aligned', 'down', 'forward_aligned');"
O=$T/out
check "the two-flavor database generates" "$GEN" gen -q --db "$T/uarch.db" --out "$O"
check "...and passes check" "$GEN" check --db "$T/uarch.db" --out "$O"
check "MANIFEST verifies every flavor's files" sh -c "cd '$O' && sha256sum --quiet -c MANIFEST"
check "scratch exports only its routines" sh -c "! grep -Eq '_user\b|user_access' '$O/scratch/x86_64/copy.asm' && \
	! grep -Eq '_user\b|user_access' '$O/scratch/copy_rule.h'"
check "scratch's table holds its measured rule" grep -qF \
	'{ 47, 0, 16, 4096, 16, 3, { { 32, { 3, 3, 3, 3, 3 } }, { 63, { 0, 0, 0, 0, 0 } }, { (uc_size_t)-1, { 1, 2, 1, 2, 1 } } }, UC_RULE_MEASURED, "zen3", "zen3", "" }' \
	"$O/scratch/copy_rule.c"
check "both syntaxes are one program, for both flavors" tests/syntax_identity.sh "$O"

S=$T/build
mkdir -p "$S"
for f in $("$GEN" flavors --db "$T/uarch.db" | cut -d' ' -f1); do
	if nasm -f elf64 -w+all -Werror "$O/$f/x86_64/copy.asm" -o "$S/$f-copy.o" &&
		cc -std=c99 -Wall -Wextra -Werror -pedantic -ffreestanding -O2 -c "$O/$f/copy_rule.c" -o "$S/$f-rule.o" &&
		cc -std=c99 -Wall -Wextra -Werror -pedantic -ffreestanding -O2 -c "$O/$f/tests/rule_tests.c" -o "$S/$f-tests.o" &&
		cc -std=c11 -O2 -no-pie -I"$O/$f" -I. tests/run_rule_tests.c common/text_poke.c "$S/$f-tests.o" "$S/$f-rule.o" "$S/$f-copy.o" \
			-o "$S/$f-run"; then
		ok
		check "flavor $f passes its generated tests" "$S/$f-run"
	else
		bad "flavor $f does not build"
	fi
done
check "the scratch entry zen3 goes down below 48" sh -c "'$S/scratch-run' zen3 | grep -q '^[0-9]* passed, 0 failed'"
summary
