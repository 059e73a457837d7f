#!/bin/sh
# The probe's machine code of a branch tree (plan/encode.c) is the code gen
# ships: for every routine set of every flavor, the tree plan_encode writes,
# its jumps to the copies aimed at the copies' labels, equals byte for byte
# what NASM made of out/<flavor>/x86_64/copy.asm after the set's memcpy
# entry. Checked on uarch.db and on a forged database whose tables take
# every form of the tree: zero_mod below 4096 (a test of d), the near and
# below classes, and sixteen bands.
# A user table that enters avx512_medium at its pieces (plan/pieces.h), and
# a kernel table whose tree tests the distance first, are checked so too,
# and run their generated tests.
# usage: tests/plan_encode.sh   (needs what make builds)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"

CHECK=build/plan_encode_check
# lines DB OBJ: the check's input, the database's rules and the object's symbols.
lines() {
	sqlite3 -separator ' ' "$1" "SELECT 'flavor', name, CASE isa WHEN 'gpr' THEN 0 WHEN 'avx2' THEN 1 ELSE 2 END
		FROM flavor" &&
	sqlite3 -separator ' ' "$1" "SELECT 'rule', uarch, flavor, above_max, near_max, below_max, zero_mod, align_dst
		FROM rule ORDER BY uarch" &&
	sqlite3 -separator ' ' "$1" "SELECT 'band', uarch, flavor, length_lo, coalesce(length_hi, -1), zero, above,
		near, below, elsewhere FROM rule_band ORDER BY uarch, flavor, length_lo" &&
	nm "$2" | awk '$2 == "t" || $2 == "T" { print "sym", $1, $3 }'
}
# same DB DIR FLAVOR: DIR/FLAVOR's copy.asm assembled, then checked.
same() {
	nasm -f elf64 "$2/$3/x86_64/copy.asm" -o "$T/$3.o" &&
	objcopy -O binary --only-section=.text "$T/$3.o" "$T/$3.text" &&
	lines "$1" "$T/$3.o" >"$T/$3.lines" &&
	$CHECK "$3" "$T/$3.text" <"$T/$3.lines" >"$T/$3.out"; rc=$?
	cat "$T/$3.out"
	[ $rc -eq 0 ] && grep -q '^[1-9][0-9]* sets, 0 differ$' "$T/$3.out"
}

for flavor in $(gen/uarchgen flavors | cut -d' ' -f1); do
	check "$flavor: every set of uarch.db encodes to out/'s bytes" same uarch.db out "$flavor"
done

# The forged tables: zen2's kernel rule with every class and sixteen bands.
cp uarch.db "$T/forged.db" && ln -s "$ROOT/evidence" "$T/evidence"
bands=""
lo=0
for k in $(seq 1 16); do
	if [ "$k" -eq 16 ]; then hi=NULL; else hi=$((lo + 64 * k - 1)); fi
	if [ $((k % 2)) -eq 0 ]; then cells="'down', 'forward', 'forward_aligned', 'down', 'forward'"
	else cells="'forward_aligned', 'down', 'forward', 'forward', 'forward'"; fi
	[ "$k" -eq 1 ] && cells="'forward', 'forward', 'forward', 'forward', 'forward'"
	bands="$bands INSERT INTO rule_band VALUES ('zen2', 'kernel', $lo, $hi, $cells);"
	[ "$hi" = NULL ] || lo=$((hi + 1))
done
sqlite3 "$T/forged.db" "UPDATE rule SET above_max = 31, near_max = 200, below_max = 100, zero_mod = 64, align_dst = 64
	WHERE uarch = 'zen2' AND flavor = 'kernel'; DELETE FROM rule_band WHERE uarch = 'zen2' AND flavor = 'kernel'; $bands"
check "the forged database generates" gen/uarchgen gen -q --db "$T/forged.db" --out "$T/forged"
check "...with a test of d mod 64, the near and below classes, and short and rel32 label jumps" sh -c \
	"grep -q 'test    ecx, 63' '$T/forged/kernel/x86_64/copy.asm' && grep -q 'near: d <= near_max' '$T/forged/kernel/x86_64/copy.asm' &&
	 grep -q 'below: d >= 4096' '$T/forged/kernel/x86_64/copy.asm'"
check "kernel: every set of the forged database encodes to its bytes" same "$T/forged.db" "$T/forged" kernel

# A user table whose trees enter avx512_medium at its pieces (plan/pieces.h):
# 33..512 cut at 63 and 128, and 257..512, with a test of d = 0, entered at
# the piece of 129 bytes on; its leaves past the first, 33..63, 64..128 and
# 129..256, are the pieces' moves right after their compares (plan/tree.h,
# falls). And zen4's, avx512_masked
# up to 63 bytes, then avx512_medium, whose moves of 64..128 follow the
# second compare, as the C library's AVX-512 memmove lays them out. And
# zen3's, two bands of avx512_medium apart, 64..512 and 769..1024, both
# of its piece of 129 bytes on, whose moves a tree may lay out after two
# compares (the table a Zen 5 guest's run derived, which NASM refused
# while both took one label).
sqlite3 "$T/forged.db" "UPDATE rule SET above_max = 0, near_max = 0, below_max = 0, zero_mod = 4096, align_dst = 0
	WHERE uarch = 'zen5' AND flavor = 'user'; DELETE FROM rule_band WHERE uarch = 'zen5' AND flavor = 'user';
	INSERT INTO rule_band VALUES ('zen5', 'user', 0, 32, 'avx512_small', 'avx512_small', 'avx512_small',
		'avx512_small', 'avx512_small');
	INSERT INTO rule_band VALUES ('zen5', 'user', 33, 256, 'avx512_medium', 'avx512_medium', 'avx512_medium',
		'avx512_medium', 'avx512_medium');
	INSERT INTO rule_band VALUES ('zen5', 'user', 257, 512, 'avx512_down', 'avx512_medium', 'avx512_medium',
		'avx512_medium', 'avx512_medium');
	INSERT INTO rule_band VALUES ('zen5', 'user', 513, NULL, 'forward', 'forward', 'forward', 'forward', 'forward');
	UPDATE rule SET above_max = 0, near_max = 0, below_max = 0, zero_mod = 4096, align_dst = 0
	WHERE uarch = 'zen4' AND flavor = 'user'; DELETE FROM rule_band WHERE uarch = 'zen4' AND flavor = 'user';
	INSERT INTO rule_band VALUES ('zen4', 'user', 0, 63, 'avx512_masked', 'avx512_masked', 'avx512_masked',
		'avx512_masked', 'avx512_masked');
	INSERT INTO rule_band VALUES ('zen4', 'user', 64, 256, 'avx512_medium', 'avx512_medium', 'avx512_medium',
		'avx512_medium', 'avx512_medium');
	INSERT INTO rule_band VALUES ('zen4', 'user', 257, NULL, 'avx2_forward', 'avx2_forward', 'avx2_forward',
		'avx2_forward', 'avx2_forward');
	UPDATE rule SET above_max = 0, near_max = 0, below_max = 0, zero_mod = 4096, align_dst = 0
	WHERE uarch = 'zen3' AND flavor = 'user'; DELETE FROM rule_band WHERE uarch = 'zen3' AND flavor = 'user';
	INSERT INTO rule_band VALUES ('zen3', 'user', 0, 63, 'avx512_masked', 'avx512_masked', 'avx512_masked',
		'avx512_masked', 'avx512_masked');
	INSERT INTO rule_band VALUES ('zen3', 'user', 64, 512, 'avx512_medium', 'avx512_medium', 'avx512_medium',
		'avx512_medium', 'avx512_medium');
	INSERT INTO rule_band VALUES ('zen3', 'user', 513, 768, 'avx512_forward', 'avx512_forward', 'avx512_forward',
		'avx512_forward', 'avx512_forward');
	INSERT INTO rule_band VALUES ('zen3', 'user', 769, 1024, 'avx512_medium', 'avx512_medium', 'avx512_medium',
		'avx512_medium', 'avx512_medium');
	INSERT INTO rule_band VALUES ('zen3', 'user', 1025, NULL, 'forward', 'forward', 'forward', 'forward', 'forward')"
check "the forged database with a user table of avx512_medium generates" \
	gen/uarchgen gen -q --db "$T/forged.db" --out "$T/forged-user"
U=$T/forged-user/user/x86_64/copy.asm
check "...whose tree lays out the moves of avx512_medium's pieces of 64 and 129 bytes after their compares" sh -c \
	"for lo in 64 129; do grep -B3 '^.Lmemcpy_zen5_avx512_falls_avx512_medium_n'\$lo: '$U' | grep -q 'cmp     rdx, ' || exit 1; done"
check "...and jumps to the piece of 129 bytes on from 257..512 bytes, past its test of d = 0" \
	grep -q 'jmp near .Lmemcpy_zen5_avx512_avx512_medium_n129' "$U"
check "...and lays out the moves of 33..63 bytes right after its second compare, no jump" sh -c \
	"grep -B3 '^.Lmemcpy_zen5_avx512_falls_avx512_medium_n33:' '$U' | grep -q 'cmp     rdx, 63 ' &&
	 ! grep -q 'near .Lmemcpy_zen5_avx512_avx512_medium_n33' '$U'"
check "...zen4's: avx512_masked behind the first compare's jump, the moves of 64..128 bytes after the second" sh -c \
	"sed -n '/^uc_memcpy_zen4_avx512:/,/copy_end/p' '$U' | grep -v '^ *;' | sed -n '4,8p' | tr -s ' ' | tr '\\n' '|' |
	 grep -q '^ cmp rdx, 63 ; band edge| jbe near .Lmemcpy_zen4_avx512_avx512_masked| cmp rdx, 128 ; band edge| ja near .Lmemcpy_zen4_avx512_n129_up|.Lmemcpy_zen4_avx512_falls_avx512_medium_n64:|\$'"
check "...zen3's: the moves of avx512_medium's piece of 129 bytes on after two compares, each under its own label" sh -c \
	"grep -q '^.Lmemcpy_zen3_avx512_falls_avx512_medium_n129:' '$U' && grep -q '^.Lmemcpy_zen3_avx512_falls2_avx512_medium_n129:' '$U'"
check "user: every set of the forged database encodes to its bytes" same "$T/forged.db" "$T/forged-user" user
# And the pieces copy what they should: zen5's generated tests, every
# length, distance and overlap through its patched entries (on a CPU
# without AVX-512 they run the set of its isa, which has no piece).
check "...and its generated tests build" build_suite "$T/forged-user/user"
check "...and pass, zen5's" "$T/forged-user/user/run" zen5
check "...and zen4's" "$T/forged-user/user/run" zen4
check "...and zen3's" "$T/forged-user/user/run" zen3

# Kernel tables that copy zero and elsewhere forward at every length and
# some classes their own ways: their trees test the distance first
# (plan/tree_classes.c), each such class with its own length tree.
# zen4's classes are above and near, 32..100, which holds multiples of its
# zero_mod, 32: its zero test is of d mod 32, behind a compare of near's
# bound, where those classes lie. zen5's class above, 1..31,
# holds none: its zero test is of d = 0 alone (tree_zero_test_d0).
sqlite3 "$T/forged.db" "UPDATE rule SET above_max = 31, near_max = 100, below_max = 0, zero_mod = 32, align_dst = 0
	WHERE uarch = 'zen4' AND flavor = 'kernel'; DELETE FROM rule_band WHERE uarch = 'zen4' AND flavor = 'kernel';
	INSERT INTO rule_band VALUES ('zen4', 'kernel', 0, 32, 'forward', 'small', 'small', 'forward', 'forward');
	INSERT INTO rule_band VALUES ('zen4', 'kernel', 33, 1023, 'forward', 'down', 'forward', 'forward', 'forward');
	INSERT INTO rule_band VALUES ('zen4', 'kernel', 1024, NULL, 'forward', 'down', 'down', 'forward', 'forward');
	UPDATE rule SET above_max = 31, near_max = 0, below_max = 0, zero_mod = 32, align_dst = 0
	WHERE uarch = 'zen5' AND flavor = 'kernel'; DELETE FROM rule_band WHERE uarch = 'zen5' AND flavor = 'kernel';
	INSERT INTO rule_band VALUES ('zen5', 'kernel', 0, 63, 'forward', 'forward', 'forward', 'forward', 'forward');
	INSERT INTO rule_band VALUES ('zen5', 'kernel', 64, NULL, 'forward', 'down', 'forward', 'forward', 'forward')"
check "the forged database with kernel tables that copy their classes alone generates" \
	gen/uarchgen gen -q --db "$T/forged.db" --out "$T/forged-classes"
check "...zen4's tree computes the distance first, tests d mod 32, then reaches above's and near's length trees" sh -c \
	"tree_of() { sed -n \"/^uc_memcpy_\$1:/,/copy_end/p\" '$T/forged-classes/kernel/x86_64/copy.asm' | grep -v '^ *;'; }
	 tree_of zen4 | sed -n '4p' | grep -q 'mov     ecx, edi' && tree_of zen4 | grep -q 'test    ecx, 31' &&
	 tree_of zen4 | grep -q '^.Lmemcpy_zen4_above_class:' && tree_of zen4 | grep -q '^.Lmemcpy_zen4_near_class:'"
check "...and compares near's bound before it, so that a call elsewhere takes no zero test (plan/tree_classes.c, low_gate)" sh -c \
	"tree_of() { sed -n \"/^uc_memcpy_\$1:/,/copy_end/p\" '$T/forged-classes/kernel/x86_64/copy.asm' | grep -v '^ *;'; }
	 tree_of zen4 | sed -n '7,8p' | tr -s ' ' | tr '\\n' '|' | grep -q '^ cmp ecx, 100 ; near: d <= near_max| jbe near .Lmemcpy_zen4_low_classes|\$' &&
	 tree_of zen4 | grep -A1 '^.Lmemcpy_zen4_low_classes:' | grep -q 'test    ecx, 31'"
check "...zen5's tests d = 0 alone, by the flags of the distance" sh -c \
	"tree_of() { sed -n \"/^uc_memcpy_\$1:/,/copy_end/p\" '$T/forged-classes/kernel/x86_64/copy.asm' | grep -v '^ *;'; }
	 tree_of zen5 | grep -A1 'and     ecx, 4095' | grep -q 'jz near .Lmemcpy_zen5_forward  *; zero: d = 0' &&
	 ! tree_of zen5 | grep -q 'test    ecx'"
check "kernel: every set of that database encodes to its bytes" same "$T/forged.db" "$T/forged-classes" kernel
check "...and its generated tests build" build_suite "$T/forged-classes/kernel"
check "...and pass, zen4's" "$T/forged-classes/kernel/run" zen4
check "...and zen5's" "$T/forged-classes/kernel/run" zen5

# A user table whose cells need no vector isa but whose memmove stand-ins
# for an overlap do: at the gpr level the stand-ins fall back, so the
# tables of its isa levels differ by their stand-ins alone. Each set is
# named for the widest isa it needs, stand-ins counted, so two are two
# names (plan/table.h, plan_widest_isa); else one name for two sets.
sqlite3 "$T/forged.db" "UPDATE rule SET above_max = 0, near_max = 0, below_max = 1, zero_mod = 4096, align_dst = 0,
	overlap_below = 'avx2_forward', overlap_below_max = 64, overlap_above = 'avx2_down', overlap_above_max = 64
	WHERE uarch = 'zen3' AND flavor = 'user'; DELETE FROM rule_band WHERE uarch = 'zen3' AND flavor = 'user';
	INSERT INTO rule_band VALUES ('zen3', 'user', 0, 32, 'small', 'small', 'small', 'small', 'small');
	INSERT INTO rule_band VALUES ('zen3', 'user', 33, 64, 'libc', 'down', 'down', 'down', 'libc');
	INSERT INTO rule_band VALUES ('zen3', 'user', 65, NULL, 'libc', 'libc', 'libc', 'libc', 'libc')"
check "a user table of general-register cells and vector stand-ins generates" \
	gen/uarchgen gen -q --db "$T/forged.db" --out "$T/forged-stand-ins"
check "...one set at its gpr level and one at its vector levels, each its own name" sh -c \
	"grep -q '^uc_memcpy_zen3_gpr:' '$T/forged-stand-ins/user/x86_64/copy.asm' &&
	 grep -q '^uc_memcpy_zen3_avx2:' '$T/forged-stand-ins/user/x86_64/copy.asm'"
check "user: every set of that database encodes to its bytes" same "$T/forged.db" "$T/forged-stand-ins" user
summary
