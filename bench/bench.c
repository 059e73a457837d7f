/* make bench: the copies side by side on this CPU, in one run. It reports;
 * it asserts nothing about speed.
 *
 *  1. The grid: at each length and distance, uc_memcpy under the table
 *     uc_rule_init() installs here, each strategy called alone, one plain
 *     rep movsb and the C library's memcpy. Prints the table's choice, its
 *     time, the best strategy's time, the regret (uc_memcpy over the best
 *     strategy, the two timed again in turns) and the ratio to rep movsb.
 *  2. The dispatch: for n in 1..256 at d = 0, uc_memcpy against the strategy
 *     it chooses, called directly: what the compiled tree, which
 *     rule_patch copies into the entry (or, under a forced table, the
 *     entry's jmp and the table dispatch) costs a call; the
 *     same for the table compiled for this CPU's entry (gen --target, linked
 *     in as uct_memcpy: target.c); the same for every routine set this
 *     CPU can run, each measured table installed in turn; and uc_memcpy
 *     under the baseline table against rep movsb: what a core nobody
 *     measured pays.
 *  3. The random-size workload (common/workload.c): one stream of calls
 *     through uc_memcpy, rep movsb, the C library's memcpy and uct_memcpy,
 *     and the same calls sorted by size, where every size branch predicts;
 *     each ratio the median of paired rounds, as the probe judges tables.
 *  4. The plain harness (plain.c): the timer all of the above use,
 *     time_copy, against one copy called over and over on buffers far
 *     apart, at 1 to 8 KiB, where time_copy cuts its lane count.
 *  5. The targets (report.c): the figures above that the choice-once work
 *     is judged by, for this flavor and this CPU's rule.
 * Where the flavor has memmove (a libc's), the grid and the workload also
 * time it against the C library's memmove, and the grid prints the
 * geometric-mean speed-up over the C library. */
#include "copy_rule.h"
#include "../common/text_poke.h"
#include "../common/plot.h"
#include "../common/workload.h"
#include "paired.h"
#include "plain.h"
#include "routines.h"
#include "target.h"
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>


static const char usage[] =
	"usage: bench [--out DIR] [--samples N]\n"
	"\n"
	"Times, side by side on this CPU: uc_memcpy under the table uc_rule_init\n"
	"installs, each strategy alone, one rep movsb and the C library's memcpy (and,\n"
	"for a flavor with memmove, uc_memmove against the C library's memmove), on a\n"
	"grid of lengths (8 B..8 MiB) and distances (dst - src) mod 4096; the dispatch\n"
	"cost for n in 1..256; a random-size workload drawn from glibc's\n"
	"bench-memcpy-random distribution; and the timer itself, time_copy, against a\n"
	"plain loop at 1..8 KiB. Built with a table compiled for one entry\n"
	"(gen --target; make bench links the entry this CPU's CPUID selects, or\n"
	"TARGET=NAME), it times that table's copy too, as uct_memcpy. Prints ratios\n"
	"and writes DIR/bench.csv, DIR/dispatch.csv and DIR/bench.png (default\n"
	"build/bench-results).\n"
	"It reports; it asserts nothing about speed.\n";

/* The dispatch's cost: a table's memcpy against the strategy it picks,
 * called directly: at each n the median of 15 differences, the two timed in
 * turns so that both see the same machine (paired.h). A difference of a
 * tick is at the edge of what a guest's TSC resolves: with the least of
 * each copy's rounds instead, one set's median moved by more than a tick
 * from run to run where the paired one held (measured: see
 * docs/notebook/comment-figures-2026-12.md#paired-rounds-not-each-copys-least),
 * so the median over n is printed beside the mean.
 * The table is the installed one (uc_memcpy), or the one compiled for a core
 * (t: uct_memcpy, gen --target), whose bounds are immediates. */
/* Returns the median. set: the routine set's name, where the rows are
 * the routine sets' (dispatch_sets), else NULL. */
static double dispatch(FILE *csv, unsigned char *arena, int samples, const struct target *t, const char *set)
{
	double sum = 0, worst = -1e300, diff[256], hop[256];
	size_t worst_n = 0;
	copy_fn copy = t ? t->memcpy : uc_memcpy;
	/* A set's routine called directly, not through the patched entry: the
	 * difference is what the entry adds (near 0 where rule_patch copied
	 * the routine's dispatch into it, a jmp where it did not). Each is
	 * timed in turns with the chosen strategy, not with the other: the two
	 * run one tree, and two trees timed in turns measure their pairing as
	 * well (probe/streams.h, time_against). */
	copy_fn routine = set ? (copy_fn)uc_rule_routine(UC_SITE_MEMCPY) : NULL;
	const char *name = t ? "uct_memcpy" : "uc_memcpy";
	if (!t && !set)
		fprintf(csv, "table,n,choice,memcpy,direct,overhead\n");
	for (size_t n = 1; n <= 256; n++) {
		int choice = t ? t->strategy(arena + 8192, arena, n) : uc_copy_strategy(arena + 8192, arena, n);
		copy_fn direct = t ? t->routine(choice) : strategy_routine(choice);
		double a = 1e300, b = 1e300;
		for (int k = 0; k < ROUNDS; k++) {
			a = fmin(a, time_copy(copy, arena, n, 0, samples, 6000));
			b = fmin(b, time_copy(direct, arena, n, 0, samples, 6000));
		}
		/* The cost itself from pairs timed in turns (paired.h); the
		 * minima beside it in the csv. */
		double cost = paired_difference(copy, direct, arena, n, 0, 6000);
		hop[n - 1] = routine ? cost - paired_difference(routine, direct, arena, n, 0, 6000) : 0;
		sum += cost;
		diff[n - 1] = cost;
		if (cost > worst)
			worst = cost, worst_n = n;
		fprintf(csv, "%s,%zu,%d,%.3f,%.3f,%.3f\n", t ? "target" : set ? set : "installed", n, choice, a, b, cost);
		progress(t ? "dispatch (--target)" : set ? set : "dispatch", n, 256);
	}
	qsort(diff, 256, sizeof *diff, cmp_double);
	qsort(hop, 256, sizeof *hop, cmp_double);
	if (set)
		printf("  %-24s median %.2f ticks per call, mean %.2f, worst %.2f (n = %zu); the entry adds %.2f\n", set,
		       (diff[127] + diff[128]) / 2, sum / 256, worst, worst_n, (hop[127] + hop[128]) / 2);
	else if (t)
		printf("dispatch, the table compiled for %s (gen --target): %s against its chosen strategy called\n"
		       "  directly, n = 1..256 at d = 0: median %.2f ticks per call, mean %.2f, worst %.2f (n = %zu)\n\n",
		       t->entry, name, (diff[127] + diff[128]) / 2, sum / 256, worst, worst_n);
	else
		printf("dispatch: %s against its chosen strategy called directly, n = 1..256 at d = 0:\n"
		       "  median %.2f ticks per call, mean %.2f, worst %.2f (n = %zu)\n\n",
		       name, (diff[127] + diff[128]) / 2, sum / 256, worst, worst_n);
	return (diff[127] + diff[128]) / 2;
}

/* Each routine set this CPU can run, whatever rule it gets: every measured
 * table of the database installed in turn, and the dispatch timed through
 * the patched entry against the chosen strategy called alone. What a set's
 * tree (copied into the entry) costs a call is the code's, not the core's;
 * the set's copies are this CPU's. */
static void dispatch_sets(FILE *csv, unsigned char *arena, int samples, const struct uc_rule *installed)
{
	const char *seen[64];
	int n_seen = 0;
	printf("dispatch, each routine set at this CPU's isa: uc_memcpy through the patched entry against the\n"
	       "  chosen strategy called directly, n = 1..256 at d = 0 (target: median <= 1.5 ticks), and the\n"
	       "  median the entry adds to the set's routine called directly (its dispatch is copied there):\n");
	for (unsigned int row = 0; install_next_set(&row, seen, &n_seen);)
		dispatch(csv, arena, samples, NULL, seen[n_seen - 1]);
	if (!n_seen)
		printf("  none: no measured table compiles to a tree at this CPU's isa\n");
	printf("\n");
	rule_install_patched(installed);
}

/* What a core nobody measured pays: uc_memcpy under the baseline table
 * (every copy forward: the entry's own rep movsb, unpatched) against one
 * rep movsb, timed in turns, n = 1..256 at d = 0. */
static void baseline(unsigned char *arena, const struct uc_rule *installed)
{
	double diff[256], sum = 0;
	rule_install_patched(baseline_rule());
	for (size_t n = 1; n <= 256; n++) {
		diff[n - 1] = paired_difference(uc_memcpy, rep_movsb, arena, n, 0, 6000);
		sum += diff[n - 1];
		progress("baseline", n, 256);
	}
	rule_install_patched(installed);
	qsort(diff, 256, sizeof *diff, cmp_double);
	printf("baseline: uc_memcpy under the baseline table (what a core nobody measured runs) against rep movsb,\n"
	       "  n = 1..256 at d = 0: median %.2f ticks per call, mean %.2f, worst %.2f\n\n",
	       (diff[127] + diff[128]) / 2, sum / 256, diff[255]);
}

/* The random-size workload: one stream of calls, the same for each copy,
 * and the sorted control, the same calls in the order of their sizes. Each
 * copy is timed in turns with rep movsb (time_paired), as the probe times
 * its tables, and never in turns with another copy that branches on the
 * size: two such copies timed in turns measure their pairing as well
 * (probe/streams.h, time_against). A ratio of two copies is that of their
 * median per-round ratios to rep movsb; uc_memcpy against itself beside
 * them is the floor a ratio cannot be read below. */
static void workload(unsigned char *arena, int samples, const struct target *compiled, struct figures *f)
{
	enum { CALLS = WORKLOAD_CALLS, REGION = WORKLOAD_REGION };
	static struct call calls[2][CALLS];
	const struct call *const streams[2] = {calls[0], calls[1]};
	static const char *const order[2] = {"random sizes", "sorted control"};
	unsigned char *src = arena, *dst = arena + 65536 + 2048;
	/* The default --samples 5 takes every round; a quick run (the shape
	 * test's --samples 1) takes 13. */
	int rounds = samples >= 5 ? WORKLOAD_PAIRED_ROUNDS : samples * 12 + 1;
	random_calls(calls[0], CALLS, REGION, 1);
	memcpy(calls[1], calls[0], sizeof calls[0]);
	sort_calls(calls[1], CALLS);
	/* b over a: time_paired's ratio, a being rep movsb. */
	struct paired vs_movsb = time_paired(rep_movsb, uc_memcpy, dst, src, streams, CALLS, rounds);
	struct paired libc_movsb = time_paired(rep_movsb, libc_copy, dst, src, streams, CALLS, rounds);
	struct paired self = time_paired(uc_memcpy, uc_memcpy, dst, src, streams, CALLS, rounds);
#ifdef UC_HAS_MEMMOVE
	struct paired move_movsb = time_paired(rep_movsb, uc_memmove, dst, src, streams, CALLS, rounds);
	struct paired libc_move_movsb = time_paired(rep_movsb, libc_move, dst, src, streams, CALLS, rounds);
#endif
	struct paired uct_movsb = {0};
	if (compiled)
		uct_movsb = time_paired(rep_movsb, compiled->memcpy, dst, src, streams, CALLS, rounds);
	double vs_libc[2];
	for (int o = 0; o < 2; o++)
		vs_libc[o] = vs_movsb.ratio[o] / libc_movsb.ratio[o];
	f->random_vs_movsb = vs_movsb.ratio[0], f->random_vs_libc = vs_libc[0];
	f->sorted_vs_movsb = vs_movsb.ratio[1], f->sorted_vs_libc = vs_libc[1];
	printf("random sizes (glibc bench-memcpy-random's SPEC CPU2006 distribution, %d calls in %d KiB), and the\n"
	       "sorted control (the same calls in the order of their sizes, where every size branch predicts); each\n"
	       "copy timed in turns with rep movsb over %d rounds, the median of the rounds' ratios to it, never\n"
	       "two copies that branch on the size in turns with each other:\n",
	       CALLS, REGION / 1024, rounds);
	for (int o = 0; o < 2; o++) {
		printf("  %s: uc_memcpy / rep movsb %.3f, uc_memcpy / libc memcpy %.3f, libc memcpy / rep movsb %.3f\n"
		       "    (median ticks per call: uc_memcpy %.1f, rep movsb %.1f, libc memcpy %.1f); uc_memcpy / itself "
		       "%.3f\n",
		       order[o], vs_movsb.ratio[o], vs_libc[o], libc_movsb.ratio[o], vs_movsb.ticks[1][o],
		       vs_movsb.ticks[0][o], libc_movsb.ticks[1][o], self.ratio[o]);
#ifdef UC_HAS_MEMMOVE
		printf("    uc_memmove / libc memmove %.3f (ticks per call: %.1f, %.1f)\n",
		       move_movsb.ratio[o] / libc_move_movsb.ratio[o], move_movsb.ticks[1][o], libc_move_movsb.ticks[1][o]);
#endif
		if (compiled)
			printf("    the table compiled for %s (gen --target): uct_memcpy / rep movsb %.3f, uct_memcpy / "
			       "uc_memcpy %.3f (ticks per call: %.1f)\n",
			       compiled->entry, uct_movsb.ratio[o], uct_movsb.ratio[o] / vs_movsb.ratio[o],
			       uct_movsb.ticks[1][o]);
	}
	printf("\n");
}

static int plot(const char *dir)
{
	static const char grid[] =
		"set datafile separator ','\n"
		"set grid\n"
		"set multiplot layout 1,2 title 'uc_memcpy under the installed table'\n"
		"set title 'time / rep movsb at each grid point'\n"
		"set logscale x 2\n";
	static const char rest[] =
		"set xlabel 'length (bytes)'\n"
		"set ylabel 'uc_memcpy / rep movsb (lower is faster)'\n"
		"set key top left\n"
		"plot for [d in '0 1 31 32 64 2061 4095'] 'bench.csv' every ::1 using 1:($2 == d+0 ? $8 : 1/0) "
		"with linespoints pt 7 ps 0.5 title 'd = '.d\n"
		"unset logscale x\n"
		"set xtics autofreq\n"
		"set title 'dispatch cost: uc_memcpy - chosen strategy called directly'\n"
		"set xlabel 'n (bytes), d = 0'\n"
		"set ylabel 'ticks per call'\n"
		"set key top right\n"
		"plot 'dispatch.csv' every ::1 using 2:(strcol(1) eq 'installed' ? $6 : 1/0) with points pt 7 ps 0.4 "
		"title 'installed table (uc_memcpy)', "
		"'' every ::1 using 2:(strcol(1) eq 'target' ? $6 : 1/0) with points pt 6 ps 0.5 "
		"title 'compiled for this core (uct_memcpy, --target)'\n"
		"unset multiplot\n";
	char body[4096];
	if (snprintf(body, sizeof body, "%s%s%s", grid, plot_length_xtics, rest) >= (int)sizeof body) {
		fprintf(stderr, "bench: the plot script is over %zu bytes\n", sizeof body);
		return -1;
	}
	return plot_png("bench", dir, "bench.gp", "bench.png", 1500, 650, body);
}

int main(int argc, char **argv)
{
	const char *dir = "build/bench-results";
	int samples = 5;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		} else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
			dir = argv[++i];
		} else if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc) {
			samples = atoi(argv[++i]);
			if (samples < 1) {
				fprintf(stderr, "bench: --samples must be at least 1\n");
				return 2;
			}
		} else {
			fprintf(stderr, "bench: unknown or incomplete option '%s' (try --help)\n", argv[i]);
			return 2;
		}
	}
	if (!plot_available()) {
		fprintf(stderr, "bench: gnuplot is missing, and bench.png needs it (make deps)\n");
		return 1;
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "bench: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	char line[1024];
#ifdef UC_HAS_LIBC
	/* Strategy libc's cells reach the C library's memmove, as in the
	 * drop-in library (preload/uarchcopy.c). */
	uc_libc_memmove = libc_move;
#endif
	const struct uc_rule *installed = uc_rule_init();
	rule_install_patched(installed); /* and the entries run it */
	uc_rule_describe(line, sizeof line, installed);
	printf("%s\n\n", line);
	unsigned char *arena = mmap(NULL, TIMING_ARENA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED) {
		perror("bench: mmap");
		return 1;
	}
	memset(arena, 0x5a, TIMING_ARENA);
	progress_on_tty(isatty(2));

	char path[1200];
	FILE *files[2];
	static const char *const names[] = {"bench.csv", "dispatch.csv"};
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[k]);
		if (!(files[k] = fopen(path, "w"))) {
			fprintf(stderr, "bench: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	const struct target *compiled = target();
	struct figures figures = {0};
	dispatch(files[1], arena, samples, NULL, NULL);
	if (compiled)
		dispatch(files[1], arena, samples, compiled, NULL);
	dispatch_sets(files[1], arena, samples, installed);
	baseline(arena, installed);
	baseline_grid(arena, samples, installed, &figures);
	grid(files[0], arena, samples, compiled, &figures);
	workload(arena, samples, compiled, &figures);
	plain_harness(arena, samples);
	print_targets(&figures, UC_FLAVOR, uc_rule_routines(),
		      installed->status == UC_RULE_MEASURED || installed->status == UC_RULE_INHERITED);
	for (int k = 0; k < 2; k++)
		if (fclose(files[k])) {
			fprintf(stderr, "bench: %s/%s: %s\n", dir, names[k], strerror(errno));
			return 1;
		}
	if (plot(dir))
		return 1;
	printf("wrote %s/bench.csv, %s/dispatch.csv and %s/bench.png\n", dir, dir, dir);
	return 0;
}
