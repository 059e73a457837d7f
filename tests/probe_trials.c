/* The probe's search as it runs it on this CPU (probe/checks.c): for each
 * flavor it carries, on recorded tables (tests/fixtures/small_win.csv,
 * with small_flat measured wherever small is, and small_stall.csv, whose
 * table copies its own way above the source), each table the model ranks
 * compiled and timed against the baseline, the kept one's small_flat table
 * too. Which table wins is this CPU's business; what is checked is the
 * plumbing: each check timed, every time a positive number of ticks, each
 * verdict the one its rule gives, and the archive's lines read back. And
 * each strategy's own entry and the pieces (probe_trials_entries.c).
 * And the order of the timing (probe/streams.h, time_against): two copies
 * are each timed in turns with the reference, never in turns with each
 * other, and placed.c's median is the middle one. And the grid gate on
 * a kept table (probe/grid_gate.c): timed on the grid, its verdict its
 * rule's, its line read back, and not run where no table is kept. */
#include "probe_trials.h"

#include "../derive/chosen.h"
#include "../derive/dispatch.h"
#include "../derive/repair.h"
#include "../derive/grid_gate.h"
#include "../derive/search.h"
#include "../probe/checks.h"
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

/* The search as the probe runs it (probe/checks.c), on a run whose
 * dispatch costs one tick a band: each table the model ranks checked once,
 * in rank, each timed, the verdicts search_keep's, the kept table's
 * small_flat table checked where it has one, the grid gate run where a
 * table was kept, and the lines read back. */
static void check_search(const struct probe_flavor *f, const struct timings *t, const char *fixture)
{
	char name[96], why[300] = "";
	snprintf(name, sizeof name, "%s, %s", f->name, fixture);
	/* The search of the version this probe writes: the profile's table
	 * among those ranked, as search_and_check ranks them. */
	struct dispatch_run d = {.measured = 1,
				 .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}},
				 .profile_fit = 1,
				 .against_reference = 1};
	struct search_entry *e = malloc(SEARCH_TABLES * sizeof *e);
	struct derived_rule *flat = malloc(sizeof *flat);
	int n = 0, rc = !e || !flat || search_rank(t, &d, e, &n) || search_and_check(f, t, &d, 0.03, 0, 65536);
	struct dispatch_run judged = d;
	search_keep(&judged, 0.03);
	/* The rank of the table kept, whether as ranked or with small_flat. */
	int kept = search_kept(&judged);
	kept = kept >= 0 ? judged.checks[kept].rank : -1;
	int wants_flat = kept >= 0 && search_flat(t, &e[kept], flat);
	int right = rc == 0 && d.searched && n > 0 && d.n_checks == n + wants_flat;
	for (int k = 0; right && k < d.n_checks; k++)
		right &= ticks(d.checks[k].table) && ticks(d.checks[k].baseline) && d.checks[k].rank == (k < n ? k : kept) &&
			 d.checks[k].flat == (k >= n);
	for (int k = 0; right && k < n; k++)
		right &= d.checks[k].verdict == judged.checks[k].verdict ||
			 (k == kept && d.checks[k].verdict == CHECK_PASSED && d.checks[n].verdict == CHECK_KEPT);
	check(right, name, "the ranked tables were not each checked once in rank, the kept one's small_flat table "
			   "after them, or a verdict is not search_keep's");
	check(d.gate.tried == (search_kept(&d) >= 0), name, "the grid gate did not run on the table kept, or ran with none");
	struct buf b = {0};
	search_text(&b, &d);
	struct dispatch_run r = {0};
	char *save = NULL, *line = strtok_r(b.data, "\n", &save);
	int bad = search_count_parse(line, &r, why, sizeof why);
	for (int k = 0; !bad && k < r.n_checks; k++)
		bad = search_check_parse(strtok_r(NULL, "\n", &save), &r.checks[k], why, sizeof why);
	bad = bad || search_checks_valid(&r, why, sizeof why);
	check(!bad && r.n_checks == d.n_checks && search_kept(&r) == search_kept(&d), name,
	      "the search's lines do not read back");
	printf("%s: %d tables ranked, %d checks, table %d kept\n", name, n, d.n_checks,
	       search_kept(&d) < 0 ? 0 : d.checks[search_kept(&d)].rank + 1);
	buf_free(&b);
	free(e);
	free(flat);
}

/* Whether d's gate verdict names one of the gate's points: a distance of
 * make bench's grid, at a length gate_grid_cover gives the table kept
 * before the gate, or the table as repaired, or a repair's band. */
static int gate_point_of(const struct timings *t, const struct dispatch_run *d, const struct derived_rule *before)
{
	struct gate_grid *g = calloc(1, sizeof *g);
	struct derived_rule *after = malloc(sizeof *after);
	int on = 0;
	if (!g || !after || derive_chosen(t, d, after))
		goto out;
	gate_grid_cover(g, before, 65536);
	gate_grid_cover(g, after, 65536);
	for (int k = 0; k < d->n_repairs; k++) {
		const struct grid_repair *p = &d->repairs[k];
		struct derived_rule band = {.n_bands = 3, .bands = {{.lo = 0}, {.lo = p->lo, .hi = p->hi}, {.lo = p->hi + 1, .hi = p->hi + 1}}};
		gate_grid_cover(g, &band, 65536);
	}
	for (size_t i = 0; i < g->n_lengths; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			on |= d->gate.length == g->lengths[i] && d->gate.distance == bench_grid_distances[j];
out:
	free(g);
	free(after);
	return on;
}

/* The grid gate on a run that kept the first ranked table: each point
 * timed, the worst one of the gate's points, the verdict its rule's, the line
 * read back; and nothing where no table is kept. */
static void check_grid_gate(const struct probe_flavor *f, const struct timings *t)
{
	const char *name = f->name;
	char why[300] = "";
	struct dispatch_run kept = {.measured = 1, .searched = 1, .chosen = CHOSE_BASELINE, .n_checks = 1,
				    .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}}};
	struct search_entry *e = malloc(SEARCH_TABLES * sizeof *e);
	int n = 0;
	if (!e || search_rank(t, &kept, e, &n) || !n) {
		check(0, name, "the fixture ranks no table");
		free(e);
		return;
	}
	kept.checks[0] = (struct search_check){.rank = 0, .bands = e[0].rule.n_bands, .table = {5, 5},
					       .baseline = {10, 10}, .verdict = CHECK_KEPT};
	free(e);
	struct derived_rule *before = malloc(sizeof *before);
	if (!before || derive_chosen(t, &kept, before)) {
		check(0, name, "the kept table does not derive");
		free(before);
		return;
	}
	int rc = try_grid_gate(f, t, &kept, 0.03, 0, 65536);
	const struct grid_gate *g = &kept.gate;
	check(rc == 0 && g->tried && isfinite(g->worst) && g->worst > 0 && gate_point_of(t, &kept, before) &&
		      (!g->refused || g->worst > 1.03),
	      name, "the grid gate was not timed at its points, or its verdict is not its rule's");
	free(before);
	struct buf gb = {0};
	grid_gate_text(&gb, &kept);
	*strchr(gb.data, '\n') = '\0';
	struct dispatch_run gr = kept;
	check(grid_gate_parse(gb.data, &gr, why, sizeof why) == 0 && gr.gate.refused == g->refused &&
		      gr.gate.length == g->length && gr.gate.distance == g->distance,
	      name, "the grid gate's line does not read back");
	buf_free(&gb);
	struct dispatch_run none = kept;
	none.checks[0].verdict = CHECK_LOST;
	check(try_grid_gate(f, t, &none, 0.03, 0, 65536) == 0 && !none.gate.tried, name,
	      "the grid gate ran where no table was kept");
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("usage: %s\nThe probe's search, its checks and its grid gate, timed on this CPU for each "
		       "flavor on recorded tables; prints N passed, N failed.\n",
		       argv[0]);
		return strcmp(argv[1], "--help") == 0 ? 0 : 2;
	}
	struct timings t = {0}, stall = {0};
	if (timings_read_csv(&t, "tests/fixtures/small_win.csv") || timings_read_csv(&stall, "tests/fixtures/small_stall.csv")) {
		printf("FAIL tests/fixtures/small_win.csv or small_stall.csv does not read\n0 passed, 1 failed\n");
		return 1;
	}
	for (size_t i = 0, n = t.n; i < n; i++)
		if (t.rows[i].strategy == STRATEGY_SMALL) {
			struct row r = t.rows[i];
			r.strategy = STRATEGY_SMALL_FLAT;
			timings_add(&t, r);
		}
	check_cpus();
	check_timed_apart();
	for (const struct probe_flavor *const *f = probe_flavors; *f; f++) {
		check_own_entries(*f);
		check_pieces(*f);
		check_search(*f, &t, "small_win.csv");
		check_search(*f, &stall, "small_stall.csv");
		check_grid_gate(*f, &t);
	}
	timings_free(&t);
	timings_free(&stall);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
