#!/bin/sh
# tests/bench_runs.sh FLAVOR: make bench's program, one quick sample, owes a
# report that holds together. It asserts no speed: timing on a shared
# machine is noise. It checks the report's shape, whatever core it runs on:
#   - every section is printed: dispatch, baseline, grid, random sizes,
#     the plain harness (with its count of the points that agree),
#     targets (with a figure for this CPU's rule);
#   - bench.csv has one row per grid point (18 lengths x 13 distances), each
#     naming one of the flavor's strategies, with finite positive times and
#     regret; the workload prints uc_memcpy against itself, its floor;
#   - dispatch.csv has n = 1..256 for the installed table, its codes the
#     flavor's, and at d = 0 the grid names the same strategy as it does;
#   - bench.png is a PNG of the size asked, drawn from bench.gp, whose
#     length axis reads 1 KiB, not 1024.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/lib.sh"
flavor=${1:?usage: tests/bench_runs.sh FLAVOR}
bench=build/$flavor/bench
[ -x "$bench" ] || { echo "tests/bench_runs.sh: $bench is not built (make)" >&2; exit 2; }

# The flavor's strategies, "code name" a line: the catalogue's rows whose
# code the flavor's UC_STRATEGY_CODES mask holds.
mask=$(sed -n 's/^#define UC_STRATEGY_CODES \(0x[0-9a-f]*\)ull$/\1/p' "out/$flavor/copy_rule.h")
gen/uarchgen strategies | while read -r code name _; do
	[ $(((mask >> code) & 1)) -eq 1 ] && echo "$code $name"
done >"$T/strategies"

out=$T/run
mkdir "$out"
check "$flavor: the bench runs" "$bench" --samples 1 --out "$out"
cp "$T/log" "$T/report"
for section in "dispatch: " "baseline: " "grid: " "random sizes " "plain harness, " "targets, "; do
	check "$flavor: the report has its '$section' section" grep -q "^$section" "$T/report"
done

# Six lengths for each of rep movsb, the C library's memcpy and the vector
# copies this CPU runs: two to four copies.
check "$flavor: the plain harness counts its points" \
	grep -Eqx 'plain harness: [0-9]+ of (12|18|24) points agree within 10%' "$T/report"

# bench.csv: n,d,choice,uc_memcpy,best,best_strategy,...
check "$flavor: bench.csv has a row per grid point" \
	test "$(tail -n +2 "$out/bench.csv" | wc -l)" -eq 234
check "$flavor: bench.csv names only the flavor's strategies, times finite and positive" \
	awk -F'[ ,]' 'NR == FNR { ok[$2] = 1; next }
		FNR > 1 && (!($3 in ok) || !($6 in ok) || !($4 + 0 > 0) || !($5 + 0 > 0) ||
			    $4 ~ /nan|inf/ || $5 ~ /nan|inf/) { print "row " FNR ": " $0; bad = 1 }
		END { exit bad }' "$T/strategies" "$out/bench.csv"

# The regret, timed again in turns: a finite ratio near the minima's.
check "$flavor: bench.csv's regret is finite and positive at every point" \
	awk -F, 'NR > 1 && !($7 + 0 > 0 && $7 + 0 < 1000 && $7 !~ /nan|inf/) { print "row " NR ": " $0; bad = 1 }
		END { exit bad }' "$out/bench.csv"
# The workload's ratios are paired medians, each copy against itself beside them.
check "$flavor: the workload prints uc_memcpy against itself on both streams" \
	test "$(grep -c 'uc_memcpy / itself [0-9]' "$T/report")" -eq 2

# dispatch.csv: table,n,choice (a code),memcpy,direct,overhead
check "$flavor: dispatch.csv has n = 1..256 for the installed table" \
	sh -c "awk -F, '\$1 == \"installed\" { print \$2 }' '$out/dispatch.csv' | tr '\n' ' ' |
		grep -qx \"\$(seq 1 256 | tr '\n' ' ')\""
check "$flavor: the dispatch and the grid agree on the strategy at d = 0" \
	awk -F'[ ,]' 'FNR == 1 { file++ }
		file == 1 { name[$1] = $2; next }
		file == 2 && $1 == "installed" { at[$2] = $3; next }
		file == 3 && FNR > 1 && $2 == 0 && ($1 in at) {
			seen++
			if (!(at[$1] in name) || name[at[$1]] != $3) { print "n = " $1 ": " $3 " against code " at[$1]; bad = 1 }
		}
		END { exit bad || seen < 6 }' "$T/strategies" "$out/dispatch.csv" "$out/bench.csv"

# A PNG's signature, then IHDR: width and height as 4-byte big-endian.
check "$flavor: bench.png is a 1500 x 650 PNG" \
	test "$(od -An -tx1 -N24 "$out/bench.png" | tr -d ' \n')" = \
	"89504e470d0a1a0a0000000d49484452000005dc0000028a"
# A target row is the figure's name in 64 columns, then its value in 8.
check "$flavor: the targets give a figure for this CPU's rule" sh -c \
	"sed -n '/^targets, /,/^\$/p' '$T/report' | awk '/^  (un)?measured: / { n++; v = substr(\$0, 66, 8) + 0; if (!(v > 0 && v < 1000)) bad = 1 } END { exit !(n > 0 && !bad) }'"
check "$flavor: the plot labels lengths in KiB and MiB" grep -q '"1 KiB" 1024' "$out/bench.gp"
summary
