/* The probe's trials as it runs them on this CPU (probe/band_trials.c):
 * for each flavor it carries, on a recorded table where the kept rule has
 * small cells (tests/fixtures/small_win.csv, with small_flat measured
 * wherever small is), the band trials and the small trial each compile
 * their tables and time them in turns; and, where every candidate lost,
 * the shaped trial times the table both made against every copy forward.
 * Which table wins is this CPU's business; what is checked is the
 * plumbing: each trial timed, every time a positive number of ticks, each
 * verdict the one its rule gives, and the archive's lines of them read
 * back. Where the shaped table lost too, the classes trial times, in the
 * kernel flavor, the table that copies forward but above the source
 * (small_stall.csv). And each strategy's own entry and the pieces
 * (probe_trials_entries.c).
 * And the order of the timing (probe/streams.h, time_against): two copies
 * are each timed in turns with the reference, never in turns with each
 * other, and placed.c's median is the middle one. And the grid gate on
 * the kept table (probe/grid_gate.c): timed on the grid, its verdict its
 * rule's, its line read back, and not run where no table is kept. */
#include "probe_trials.h"

#include "../derive/dispatch.h"
#include "../probe/band_trials.h"
#include "../common/bench_grid.h"
#include "../plan/pieces.h"
#include "../probe/compiled.h"
#include "../probe/cpus.h"
#include "../probe/grid_gate.h"
#include "../probe/measure.h"
#include "../probe/placed.h"
#include "../probe/streams.h"
#include "../common/util.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

void check(int ok, const char *flavor, const char *what)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("FAIL %s: %s\n", flavor, what);
	}
}

static int ticks(struct workload_ticks w)
{
	return isfinite(w.random) && isfinite(w.sorted) && w.random > 0 && w.sorted > 0;
}

/* Which copy ran, each change of copy noted: the runs of calls in order. */
static char runs[1 << 16];
static size_t n_runs;

static void ran(char who)
{
	if (n_runs == 0 || runs[n_runs - 1] != who) {
		if (n_runs < sizeof runs)
			runs[n_runs] = who;
		n_runs++;
	}
}

static void *copy_reference(void *dst, const void *src, size_t n)
{
	ran('R');
	return memcpy(dst, src, n);
}

static void *copy_a(void *dst, const void *src, size_t n)
{
	ran('A');
	return memcpy(dst, src, n);
}

static void *copy_b(void *dst, const void *src, size_t n)
{
	ran('B');
	return memcpy(dst, src, n);
}

/* The CPUs the grid gate times on (probe/cpus.h): the home CPU first,
 * then others the process may run on, none twice, as many as it may run
 * on up to CPUS_TIMED_MAX; each one the process can be pinned to; and the
 * home one pinned again after. */
static void check_cpus(void)
{
	cpu_set_t allowed;
	int may = sched_getaffinity(0, sizeof allowed, &allowed) ? 1 : CPU_COUNT(&allowed), cpus[CPUS_TIMED_MAX];
	cpus_settle();
	int n = cpus_timed(cpus), right = n == (may < CPUS_TIMED_MAX ? may : CPUS_TIMED_MAX) &&
						cpus[0] == cpus_home() && sched_getcpu() == cpus_home();
	for (int i = 0; right && i < n; i++) {
		for (int j = 0; j < i; j++)
			right &= cpus[j] != cpus[i];
		right &= cpus_pin(cpus[i]) == 0 && sched_getcpu() == cpus[i];
	}
	right &= cpus_pin(cpus_home()) == 0 && sched_getcpu() == cpus_home();
	check(right, "cpus", "the grid gate's CPUs are not the home one first, then others it may run on, each once");
}

/* A and B each timed in turns with the reference, never with each other:
 * every run of A's calls or B's is next to runs of the reference's only,
 * and all of A's come before all of B's. */
static void check_timed_apart(void)
{
	struct streams *s = streams_new();
	const copy_fn copies[2] = {copy_a, copy_b};
	struct workload_ticks out[2], reference;
	n_runs = 0;
	time_against(s, copy_reference, copies, 2, out, &reference);
	streams_free(s);
	int apart = n_runs > 2 && n_runs <= sizeof runs, b_seen = 0;
	for (size_t i = 0; apart && i < n_runs; i++) {
		if (runs[i] != 'R' && ((i > 0 && runs[i - 1] != 'R') || (i + 1 < n_runs && runs[i + 1] != 'R')))
			apart = 0;
		b_seen |= runs[i] == 'B';
		if (runs[i] == 'A' && b_seen)
			apart = 0;
	}
	check(apart, "time_against", "two copies were timed in turns with each other, or not one after the other");
	check(ticks(out[0]) && ticks(out[1]) && ticks(reference), "time_against", "a copy's time is not a positive "
	      "number of ticks");
	check(median3(3, 1, 2) == 2 && median3(1, 2, 3) == 2 && median3(2, 3, 1) == 2 && median3(5, 5, 1) == 5,
	      "time_placed", "median3 is not the middle of three");
	/* Two tables at three places (0..5) and three extra copies (6..8):
	 * each extra right after one round of places, not all at the end. */
	static const int want[9] = {0, 1, 6, 2, 3, 7, 4, 5, 8};
	int order[9];
	placed_order(2, 3, order);
	check(memcmp(order, want, sizeof want) == 0, "time_placed",
	      "the extra copies are not timed among the places, extra j after place j mod 3");
}

/* The band trials on the kept table at the measured cost, and the small
 * trial on the table as derived at that cost, before any band trial merged
 * a range (which may take its small cells): each timed, each verdict its
 * rule's, their lines read back. Leaves in *fresh the run the small trial
 * was timed on. */
static void check_band_and_small(const struct probe_flavor *f, const struct table *t, struct dispatch_run *fresh)
{
	const char *name = f->name;
	/* One band a tick. */
	struct dispatch_run d = {.measured = 1, .chosen = 1, .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}}};
	int rc = try_band_splits(f, t, &d, 0.03);
	int timed = rc == 0 && d.n_trials > 0;
	for (int k = 0; timed && k < d.n_trials; k++)
		timed &= ticks(d.trials[k].with) && ticks(d.trials[k].without) &&
			 d.trials[k].merged == band_trial_merges(&d.trials[k], 0.03);
	check(timed, name, "the band trials were not each timed, or a verdict is not its rule's");
	*fresh = (struct dispatch_run){.measured = 1, .chosen = 1, .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}}};
	rc = try_small_flat(f, t, fresh, 0.03);
	d.small = fresh->small;
	const struct small_trial *v = &d.small;
	check(rc == 0 && v->tried && ticks(v->with) && ticks(v->without) && isfinite(v->baseline_sorted) &&
		      v->baseline_sorted > 0 && v->kept == small_trial_keeps(v, 0.03),
	      name, "the small trial was not timed, or its verdict is not its rule's");
	struct buf b = {0};
	band_trials_text(&b, &d);
	small_trial_text(&b, &d);
	struct dispatch_run r = {0};
	char why[300] = "", *save = NULL, *line = strtok_r(b.data, "\n", &save);
	int bad = band_trials_count(line, &r, why, sizeof why);
	for (int k = 0; !bad && k < r.n_trials; k++)
		bad = band_trial_parse(strtok_r(NULL, "\n", &save), &r.trials[k], why, sizeof why);
	bad = bad || small_trial_parse(strtok_r(NULL, "\n", &save), &r.small, why, sizeof why);
	check(!bad && r.n_trials == d.n_trials && r.small.tried && r.small.kept == v->kept, name,
	      "the trials' lines do not read back");
	printf("%s: %d band trials; small trial %.2f against %.2f ticks a call on random sizes: %s\n", name, d.n_trials,
	       v->with.random, v->without.random, v->kept ? "kept" : "not kept");
	buf_free(&b);
}

/* The grid gate on the table kept: each point timed, the worst a point of
 * the grid, the verdict its rule's, the line read back; and nothing where
 * no table is kept. The table is the small trial's, with no range merged:
 * a band trial's merge may take the cells of small its verdict was timed
 * on, and a run whose trials did so would contradict itself. */
static void check_grid_gate(const struct probe_flavor *f, const struct table *t, struct dispatch_run *fresh)
{
	const char *name = f->name;
	char why[300] = "";
	int rc = try_grid_gate(f, t, fresh, 0.03, 65536);
	const struct grid_gate *g = &fresh->gate;
	int on_grid = 0;
	for (size_t i = 0; i < BENCH_GRID_LENGTHS; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			on_grid |= g->length == bench_grid_lengths[i] && g->distance == bench_grid_distances[j];
	check(rc == 0 && g->tried && isfinite(g->worst) && g->worst > 0 && on_grid && (!g->refused || g->worst > 1.03),
	      name, "the grid gate was not timed on the grid, or its verdict is not its rule's");
	struct buf gb = {0};
	grid_gate_text(&gb, fresh);
	*strchr(gb.data, '\n') = '\0';
	struct dispatch_run gr = {.measured = 1, .chosen = 1};
	check(grid_gate_parse(gb.data, &gr, why, sizeof why) == 0 && gr.gate.refused == g->refused &&
		      gr.gate.length == g->length && gr.gate.distance == g->distance,
	      name, "the grid gate's line does not read back");
	buf_free(&gb);
	struct dispatch_run none = {.measured = 1, .chosen = CHOSE_BASELINE};
	check(try_grid_gate(f, t, &none, 0.03, 65536) == 0 && !none.gate.tried, name,
	      "the grid gate ran where no table was kept");
}

/* A run whose every candidate lost (the candidate at 1 the fastest). */
static struct dispatch_run every_candidate_lost(void)
{
	struct dispatch_run lost = {.measured = 1, .chosen = CHOSE_BASELINE, .baseline = {10, 10},
				    .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}},
				    .candidates = {{20, 10}, {11, 10}, {12, 10}}};
	shaped_trial_start(&lost);
	return lost;
}

/* Every candidate lost: the trials shape the fastest (the candidate at 1
 * here), then the shaped trial times it; its line reads back. */
static void check_shaped(const struct probe_flavor *f, const struct table *t)
{
	const char *name = f->name;
	char why[300] = "";
	struct dispatch_run lost = every_candidate_lost();
	int rc = lost.shaped.from == 1 ? try_band_splits(f, t, &lost, 0.03) : -1;
	rc = rc ? rc : try_small_flat(f, t, &lost, 0.03);
	rc = rc ? rc : try_shaped(f, t, &lost, 0.03);
	const struct shaped_trial *x = &lost.shaped;
	check(rc == 0 && lost.n_trials > 0 && x->started && ticks(x->shaped) && ticks(x->baseline) &&
		      x->kept == shaped_trial_keeps(x, 0.03),
	      name, "the shaped trial was not timed after the band trials, or its verdict is not its rule's");
	struct buf sb = {0};
	shaped_trial_text(&sb, &lost);
	*strchr(sb.data, '\n') = '\0';
	struct dispatch_run back = {.measured = 1, .chosen = CHOSE_BASELINE};
	check(shaped_trial_parse(sb.data, &back, why, sizeof why) == 0 && back.shaped.from == 1 &&
		      back.shaped.kept == x->kept,
	      name, "the shaped trial's line does not read back");
	printf("%s: shaped trial %.2f against %.2f ticks a call on random sizes for every copy forward: %s\n", name,
	       x->shaped.random, x->baseline.random, x->kept ? "kept" : "not kept");
	buf_free(&sb);
}

/* The shaped table lost too: in the kernel flavor the classes trial times
 * the table copying forward but above the source (small_stall.csv, no
 * trial run on it); the user flavor, whose every copy forward is the C
 * library's memmove, tries none. Its line reads back. */
static void check_classes(const struct probe_flavor *f, const struct table *stall)
{
	const char *name = f->name;
	char why[300] = "";
	struct dispatch_run lost_too = every_candidate_lost();
	int rc = try_classes(f, stall, &lost_too, 0.03);
	const struct classes_trial *c = &lost_too.classes;
	if (f->moves)
		check(rc == 0 && !c->tried, name, "the classes trial ran where every copy forward is the C library's");
	else
		check(rc == 0 && c->tried && ticks(c->table) && ticks(c->baseline) &&
			      c->kept == classes_trial_keeps(c, 0.03) && dispatch_keeps_table(&lost_too) == c->kept,
		      name, "the classes trial was not timed, or its verdict is not its rule's");
	struct buf cb = {0};
	classes_trial_text(&cb, &lost_too);
	*strchr(cb.data, '\n') = '\0';
	struct dispatch_run cr = {.measured = 1, .chosen = CHOSE_BASELINE};
	check(classes_trial_parse(cb.data, &cr, why, sizeof why) == 0 && cr.classes.tried == c->tried &&
		      cr.classes.kept == c->kept,
	      name, "the classes trial's line does not read back");
	if (c->tried)
		printf("%s: classes trial %.2f against %.2f ticks a call on random sizes for every copy forward: %s\n",
		       name, c->table.random, c->baseline.random, c->kept ? "kept" : "not kept");
	buf_free(&cb);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("usage: %s\nThe probe's band trials, small trial and shaped trial, timed on this CPU for each "
		       "flavor on a recorded table; prints N passed, N failed.\n",
		       argv[0]);
		return strcmp(argv[1], "--help") == 0 ? 0 : 2;
	}
	struct table t = {0}, stall = {0};
	if (table_read_csv(&t, "tests/fixtures/small_win.csv") || table_read_csv(&stall, "tests/fixtures/small_stall.csv")) {
		printf("FAIL tests/fixtures/small_win.csv or small_stall.csv does not read\n0 passed, 1 failed\n");
		return 1;
	}
	for (size_t i = 0, n = t.n; i < n; i++)
		if (t.rows[i].strategy == STRATEGY_SMALL) {
			struct row r = t.rows[i];
			r.strategy = STRATEGY_SMALL_FLAT;
			table_add(&t, r);
		}
	check_cpus();
	check_timed_apart();
	for (const struct probe_flavor *const *f = probe_flavors; *f; f++) {
		struct dispatch_run fresh;
		check_own_entries(*f);
		check_pieces(*f);
		check_band_and_small(*f, &t, &fresh);
		check_grid_gate(*f, &t, &fresh);
		check_shaped(*f, &t);
		check_classes(*f, &stall);
	}
	table_free(&t);
	table_free(&stall);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
