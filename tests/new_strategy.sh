#!/bin/sh
# A strategy is a catalogue row and a body: in a copy of this tree, a
# throwaway strategy forward_twin (forward under another name, the next code, a
# general-register one, after a gap in the kernel flavor's codes) is
# added by its row in common/strategies.h and its body
# templates/flavor/x86_64/copy/bodies/forward_twin.tpi, and a fixture puts it
# in two rules and lists its routine in both flavors. A second one, nt_twin
# (the code after it), streams: avx2_nt's body under another name, with the
# catalogue's streams column set, in the user flavor's zen3 rule. A third,
# down_twin, goes down: the descending copy under another name, in zen2's
# kernel rule and zen3's user rule (its near class, whose overlaps
# memmove's trees send to their stand-in). A fourth, small_twin, copies
# any overlap and at most 32 bytes: small under another name, in the
# first band of zen3's kernel rule, 0..32, so that the patched
# entry of memcpy holds it after its tree, with no size of
# it written anywhere (the assembler measures the entries' room). Nothing
# else changes: `make`
# regenerates out/, the generated tests, the ABI harness and the
# instruction scan pass in both flavors, the probe times forward_twin and
# down_twin, and it times nt_twin as it times avx2_nt, only where a copy
# outgrows the caches, because the column says so. Without its body,
# generation stops and names the body it lacks.
# usage: tests/new_strategy.sh   (needs what make builds; takes a minute)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"

W=$T/tree
mkdir "$W"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$W"
cd "$W" || exit 2
git init -q && git add -A && git -c user.email=t@example.org -c user.name=t commit -qm base

# The next codes: the catalogue's rows are its codes from 0, in order.
C1=$(grep -c '^	X(STRATEGY_' common/strategies.h)
C2=$((C1 + 1))
C3=$((C1 + 2))
C4=$((C1 + 3))
# The catalogue row: appended after the last row of STRATEGIES(X).
awk '
	/^#define STRATEGIES\(X\)/ { inside = 1 }
	inside && !/\\$/ {
		print $0 " \\"
		print "\tX(STRATEGY_FORWARD_TWIN, \"forward_twin\", 0, -1, ISA_GPR, '\''T'\'', STRATEGY_FORWARD, '"$C1"', DIR_UP, 0, 0, 0, \"rcx\", \\"
		print "\t  \"forward, under another name\") \\"
		print "\tX(STRATEGY_NT_TWIN, \"nt_twin\", 32, -1, ISA_AVX2, '\''U'\'', STRATEGY_FORWARD, '"$C2"', DIR_UP, 1, 0, 0, \"rcx r8 r9 ymm0-5\", \\"
		print "\t  \"avx2_nt, under another name\") \\"
		print "\tX(STRATEGY_DOWN_TWIN, \"down_twin\", 8, -1, ISA_GPR, '\''R'\'', STRATEGY_DOWN, '"$C3"', DIR_DOWN, 0, 0, 0, \"rcx r8\", \\"
		print "\t  \"down, under another name\") \\"
		print "\tX(STRATEGY_SMALL_TWIN, \"small_twin\", 0, 32, ISA_GPR, '\''P'\'', STRATEGY_SMALL, '"$C4"', DIR_ANY, 0, 0, 0, \"rax rcx r8\", \\"
		print "\t  \"small, under another name\")"
		inside = 0
		next
	}
	{ print }' common/strategies.h >"$T/strategies.h" && mv "$T/strategies.h" common/strategies.h
# Its body.
sed 's/Strategy forward:/Strategy forward_twin, a copy of forward:/' \
	templates/flavor/x86_64/copy/bodies/forward.tpi >templates/flavor/x86_64/copy/bodies/forward_twin.tpi
sed 's/Strategy avx2_nt:/Strategy nt_twin, a copy of avx2_nt:/' \
	templates/flavor/x86_64/copy/bodies/avx2_nt.tpi >templates/flavor/x86_64/copy/bodies/nt_twin.tpi
sed 's/Strategy down:/Strategy down_twin, a copy of down:/' \
	templates/flavor/x86_64/copy/bodies/down.tpi >templates/flavor/x86_64/copy/bodies/down_twin.tpi
sed 's/Strategy small:/Strategy small_twin, a copy of small:/' \
	templates/flavor/x86_64/copy/bodies/small.tpi >templates/flavor/x86_64/copy/bodies/small_twin.tpi
# The fixture: its routine in both flavors, and a cell of a rule in each;
# zen3's two tables are the fixture's own, whatever zen3 was last
# measured to run: in the kernel flavor small_twin to 32 bytes, in the
# user flavor down_twin in the near class and nt_twin past 1 MiB.
sqlite3 uarch.db "
	INSERT INTO flavor_routine (flavor, routine) VALUES ('kernel', 'copy_forward_twin'), ('user', 'copy_forward_twin'),
		('user', 'copy_nt_twin'), ('kernel', 'copy_down_twin'), ('user', 'copy_down_twin'),
		('kernel', 'copy_small_twin');
	UPDATE rule SET above_max = 31, near_max = 0, below_max = 3, zero_mod = 4096, align_dst = 0
		WHERE uarch = 'zen3' AND flavor = 'kernel';
	DELETE FROM rule_band WHERE uarch = 'zen3' AND flavor = 'kernel';
	INSERT INTO rule_band (uarch, flavor, length_lo, length_hi, zero, above, near, below, elsewhere) VALUES
		('zen3', 'kernel', 0, 32, 'forward', 'forward', 'forward', 'forward', 'small_twin'),
		('zen3', 'kernel', 33, NULL, 'forward', 'down', 'forward', 'forward', 'forward');
	UPDATE rule SET above_max = 0, near_max = 159, below_max = 13, zero_mod = 32, align_dst = 0
		WHERE uarch = 'zen3' AND flavor = 'user';
	DELETE FROM rule_band WHERE uarch = 'zen3' AND flavor = 'user';
	INSERT INTO rule_band (uarch, flavor, length_lo, length_hi, zero, above, near, below, elsewhere) VALUES
		('zen3', 'user', 0, 6143, 'forward', 'forward', 'forward', 'forward', 'forward'),
		('zen3', 'user', 6144, 1048576, 'avx2_forward', 'avx2_forward', 'down_twin', 'avx2_forward', 'avx2_forward'),
		('zen3', 'user', 1048577, NULL, 'forward_twin', 'nt_twin', 'avx2_nt', 'avx2_nt', 'avx2_nt');
	UPDATE rule_band SET above = 'down_twin' WHERE uarch = 'zen2' AND flavor = 'kernel' AND length_lo = 64;
	UPDATE rule_band SET elsewhere = 'forward_twin' WHERE uarch = 'zen2' AND flavor = 'kernel' AND length_lo = 0;"

check "the tree builds with the new strategy" make -s
check "...which the catalogue lists with code $C1" sh -c "gen/uarchgen strategies | grep -qx '$C1 forward_twin T gpr 0 -1 up'"
check "...the kernel flavor with a gap in its codes" sh -c \
	"grep -q '^#define UC_STRATEGY_FORWARD_TWIN $C1\$' out/kernel/copy_rule.h && grep -q '^#define UC_STRATEGY_DOWN_TWIN $C3\$' out/kernel/copy_rule.h &&
	 grep -q '^#define UC_STRATEGY_SMALL_TWIN $C4\$' out/kernel/copy_rule.h &&
	 ! grep -q 'UC_STRATEGY_NT_TWIN' out/kernel/copy_rule.h && grep -q '^#define UC_N_STRATEGIES $((C4 + 1))\$' out/kernel/copy_rule.h"
check "...zen2's kernel rule choosing it" sh -c \
	"gen/uarchgen lookup AuthenticAMD 0x17 0x31 --flavor kernel | grep -q 'table=0\.\.63:forward,forward,forward,forward,forward_twin;'"
check "...and nt_twin, code $C2, streaming, in zen3's user rule" sh -c \
	"gen/uarchgen strategies | grep -qx '$C2 nt_twin U avx2 32 -1 up' && grep -q '^#define UC_STRATEGY_NT_TWIN $C2\$' out/user/copy_rule.h &&
	 gen/uarchgen lookup AuthenticAMD 0x19 0x01 --flavor user | grep -q ',nt_twin,'"
check "...and down_twin, code $C3, going down, in zen2's kernel rule and zen3's user rule" sh -c \
	"gen/uarchgen strategies | grep -qx '$C3 down_twin R gpr 8 -1 down' &&
	 gen/uarchgen lookup AuthenticAMD 0x17 0x31 --flavor kernel | grep -q '64\.\.:forward,down_twin,' &&
	 gen/uarchgen lookup AuthenticAMD 0x19 0x01 --flavor user | grep -q ',down_twin,'"
check "...and small_twin, code $C4, any direction, bounded, in zen3's kernel rule" sh -c \
	"gen/uarchgen strategies | grep -qx '$C4 small_twin P gpr 0 32 any' &&
	 gen/uarchgen lookup AuthenticAMD 0x19 0x01 --flavor kernel | grep -q 'table=0\.\.32:forward,forward,forward,forward,small_twin;33\.\.:'"
# held NAME: whether uc_NAME_zen3 of the kernel flavor lays small_twin out
# before its mark copy_end, where the patched entry's copy ends.
held() {
	awk -v r="uc_$1_zen3" '$0 == r ":" { on = 1 }
		on && /_small_twin:$/ { found = 1 }
		on && $0 == "..@" r ".copy_end:" { done = 1; exit }
		END { exit !(done && found) }' out/kernel/x86_64/copy.asm
}
check "...which memcpy's patched entry holds after its tree" held memcpy
check "the changed files: the rows, the bodies, the fixture, and out/" sh -c \
	"test \"\$(git status --porcelain | grep -v ' out/' | sort | tr '\n' ' ')\" = \
' M common/strategies.h  M uarch.db ?? templates/flavor/x86_64/copy/bodies/down_twin.tpi ?? templates/flavor/x86_64/copy/bodies/forward_twin.tpi ?? templates/flavor/x86_64/copy/bodies/nt_twin.tpi ?? templates/flavor/x86_64/copy/bodies/small_twin.tpi '"
for flavor in kernel user; do
	check "$flavor: the generated tests build" make -s "build/$flavor/run_rule_tests" "build/$flavor/abi_harness"
	check "$flavor: ...and pass" "build/$flavor/run_rule_tests"
	check "$flavor: ...copy_forward_twin's group among them" "build/$flavor/run_rule_tests" copy_forward_twin
	check "$flavor: ...copy_down_twin's group among them" "build/$flavor/run_rule_tests" copy_down_twin
	[ "$flavor" = kernel ] && check "$flavor: ...copy_small_twin's group among them" "build/$flavor/run_rule_tests" copy_small_twin
	check "$flavor: the ABI harness passes, copy_forward_twin among its routines" sh -c \
		"grep -q '(uc_copy_forward_twin, ' out/$flavor/tests/routines.h && build/$flavor/abi_harness"
	check "$flavor: the instruction scan passes" tests/scan_test.sh "$flavor"
done
check "the probe times it, and down_twin" sh -c "make -s build/uarchcopy-probe && mkdir '$T/p' &&
	build/uarchcopy-probe --quick --flavor kernel --out '$T/p' >/dev/null 2>&1 && grep -q '^forward_twin ' '$T'/p/*.run &&
	grep -q '^down_twin ' '$T'/p/*.run"
# The probe plans a streaming copy by the catalogue's column: nt_twin at
# the points where it times avx2_nt, no other (the quick plan times them
# from 32 bytes; the full one from 64 KiB).
points() { grep "^$1 " "$T"/pu/*.run | cut -d' ' -f2-4; }
if grep -qw avx2 /proc/cpuinfo; then
	check "the probe times nt_twin where it times avx2_nt, and only there" sh -c \
		"mkdir '$T/pu' && build/uarchcopy-probe --quick --flavor user --out '$T/pu' >/dev/null 2>&1"
	points avx2_nt >"$T/nt.points"
	points nt_twin >"$T/twin.points"
	check "...the same points, some of them" sh -c "test -s '$T/nt.points' && cmp '$T/nt.points' '$T/twin.points'"
fi

rm templates/flavor/x86_64/copy/bodies/forward_twin.tpi
gen/uarchgen gen -q --out "$T/nobody" >/dev/null 2>"$T/nobody.err"
rc=$?
check "without its body, generation fails" test $rc -eq 1
check "...naming the body it lacks" grep -q "there is no part .*bodies/forward_twin.tpi" "$T/nobody.err"
check "...and writes nothing" test ! -e "$T/nobody"
summary
