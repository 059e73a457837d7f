# Shared by the shell tests. Source it after setting ROOT: it answers --help
# with the script's opening comment, makes a scratch folder $T (removed on
# exit), moves to ROOT, and counts results.
if [ "${1:-}" = "--help" ]; then
	sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'
	exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
cd "$ROOT" || exit 2
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { # check NAME COMMAND...: passes when the command succeeds
	name=$1
	shift
	if "$@" >"$T/log" 2>&1; then ok; else bad "$name"; sed 's/^/    /' "$T/log" | head -20; fi
}
summary() { # the closing line every test program prints; fails if anything did
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
# The kernel's flags, under which a vendored rule table and its tests build
# (gen_cli.sh, vendor_matrix.sh).
KFLAGS="-std=c99 -O2 -Wall -Wextra -Werror -fno-pie -ffreestanding -mno-red-zone -mgeneral-regs-only -mcmodel=kernel"
build_c() { # build_c CC DIR OBJ: DIR's copy_rule.c and tests/rule_tests.c under KFLAGS, as OBJ.rule.o, OBJ.tests.o
	# shellcheck disable=SC2086
	$1 $KFLAGS -c "$2/copy_rule.c" -o "$3.rule.o" && $1 $KFLAGS -c "$2/tests/rule_tests.c" -o "$3.tests.o"
}
build_suite() { # build_suite DIR: the generated tests against DIR's routines, the C under KFLAGS, as DIR/run
	nasm -f elf64 "$1/x86_64/copy.asm" -o "$1/copy.o" &&
		build_c cc "$1" "$1/c" &&
		mkdir -p "$1/harness/tests" && cp tests/run_rule_tests.c "$1/harness/tests/" &&
		cc -O2 -no-pie -I"$1" -I. "$1/harness/tests/run_rule_tests.c" common/text_poke.c "$1/c.tests.o" "$1/c.rule.o" "$1/copy.o" -o "$1/run"
}
sha_again() { # sha_again FILE: a run archive's checksum line made again over FILE's other lines
	sed '$d' "$1" >"$1.body" && { cat "$1.body"; echo "sha256 $(sha256sum "$1.body" | cut -d' ' -f1)"; } >"$1" &&
		rm "$1.body"
}
as_version() { # as_version IN OUT N: the probe's archive IN (version 29) as version N (1..25) wrote it: no overlapping points; its lines after the points: the candidate at 1 kept, no trial run, the gate passed, no repair; checksum made again
	awk -v n="$3" '
		/^probe [0-9]+$/ { print "probe " n; next }
		/^(overlaps|overlap) / { next }
		/^(search|check|grid_gate|repairs|repair) / { next }
		/^dispatch / && n < 3 { next }
		/^sha256 / { if (n >= 12) print "grid_gate 1.010 256 63 passed"; if (n >= 21) print "repairs 0"; print; next }
		{ print }
		/^dispatch 8 / && n >= 3 {
			print "candidate 0 12.00 9.00"; print "candidate 1 11.00 9.00"; print "candidate 4 11.50 9.00"
			print "baseline 14.00 10.00"; print "chosen 1"
			if (n >= 7) print "trials 0"; if (n >= 8) print "small_trial none"
			if (n >= 9) print "shaped none"; if (n >= 15) print "classes none"
		}' "$1" >"$2" && sha_again "$2"
}
