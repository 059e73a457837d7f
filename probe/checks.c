/* The search's checks (checks.h). */
#include "checks.h"

#include "../derive/search.h"
#include "grid_gate.h"
#include "placed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Times table, compiled at PLACES places, and the baseline as it ships,
 * each in turns with the forward routine (time_placed), into a new check
 * of d. A forced table first, so that an aligning strategy's routine aligns
 * as the rule says. */
static struct search_check *check_one(const struct probe_flavor *f, struct streams *s, struct dispatch_run *d,
				      const struct derived_rule *table, int rank, int flat)
{
	struct derived_rule *both = malloc(2 * sizeof *both);
	struct workload_ticks times[2];
	if (!both) {
		fprintf(stderr, "probe: out of memory\n");
		exit(1);
	}
	both[0] = *table;
	derived_baseline(&both[1]);
	f->force_strategy(BASELINE_STRATEGY);
	if (time_placed(f, s, both, 2, 0, NULL, 0, times))
		exit(1);
	free(both);
	struct search_check *c = &d->checks[d->n_checks++];
	*c = (struct search_check){.rank = rank, .flat = flat, .bands = table->n_bands, .table = times[0],
				   .baseline = times[1], .verdict = CHECK_LOST};
	return c;
}

static void print_check(const struct search_check *c, double noise)
{
	printf("  check: table %d%s: %.2f ticks a call on random sizes against %.2f for the baseline, %.2f against "
	       "%.2f sorted: %s\n",
	       c->rank + 1, c->flat ? " with its branch-light copies" : "", c->table.random, c->baseline.random,
	       c->table.sorted, c->baseline.sorted, search_check_passes(c, noise) ? "passed" : "lost beyond the noise");
}

static void print_ranked(const struct search_entry *e, int n)
{
	if (!n)
		printf("  search: no table derived copies other than the baseline\n");
	for (int i = 0; i < n; i++) {
		printf("  search: table %d, ", i + 1);
		if (e[i].classes)
			printf("the stall classes of table 1 alone");
		else if (e[i].profile)
			printf("fitted to the size profile");
		else
			printf("fitted at %g times the band cost", e[i].multiple);
		printf(", %d band%s: ", e[i].rule.n_bands, e[i].rule.n_bands == 1 ? "" : "s");
		if (isfinite(e[i].model.total))
			printf("the model %.2f ticks a call on random sizes (%.2f copying, %.2f comparing, %.2f "
			       "mispredicting)",
			       e[i].model.total, e[i].model.body, e[i].model.compares, e[i].model.mispredicts);
		else
			printf("the model has no time for a copy its tree reaches");
		for (int k = 0; k < e[i].rule.cost.n_unsplit; k++)
			printf("%s %u..%u", k ? "," : "; whole:", e[i].rule.cost.unsplit[k].lo, e[i].rule.cost.unsplit[k].hi);
		printf("\n");
	}
}

/* Entry e was kept as c: its branch-light table (search_flat), where it
 * has one, checked too and kept where it beats e beyond the noise. */
static void check_flat(const struct probe_flavor *f, struct streams *s, const struct timings *t,
		       struct dispatch_run *d, const struct search_entry *e, struct search_check *c, double noise)
{
	struct derived_rule *flat = malloc(sizeof *flat);
	if (!flat) {
		fprintf(stderr, "probe: out of memory\n");
		exit(1);
	}
	if (search_flat(t, e, flat)) {
		struct search_check *fc = check_one(f, s, d, flat, c->rank, 1);
		print_check(fc, noise);
		if (search_flat_wins(fc, c, noise))
			fc->verdict = CHECK_KEPT, c->verdict = CHECK_PASSED;
		else
			fc->verdict = search_check_passes(fc, noise) ? CHECK_PASSED : CHECK_LOST;
	}
	free(flat);
}

int search_and_check(const struct probe_flavor *f, const struct timings *t, struct dispatch_run *d, double noise,
		     double placement_sd,
		     size_t longest)
{
	struct search_entry *e = malloc(SEARCH_TABLES * sizeof *e);
	int n;
	d->profile_fit = d->against_reference = 1;
	if (!e || search_rank(t, d, e, &n)) {
		fprintf(stderr, "probe: the search: %s\n", e ? e[0].rule.note : "out of memory");
		free(e);
		return -1;
	}
	print_ranked(e, n);
	d->searched = 1, d->n_checks = 0, d->chosen = CHOSE_BASELINE;
	struct streams *s = streams_new();
	for (int k = 0; k < n; k++)
		print_check(check_one(f, s, d, &e[k].rule, k, 0), noise);
	search_keep(d, noise);
	int kept = search_kept(d);
	if (kept >= 0)
		check_flat(f, s, t, d, &e[kept], &d->checks[kept], noise);
	streams_free(s);
	kept = search_kept(d);
	if (kept >= 0)
		printf("  search: kept table %d%s, the first ranked within the noise of the fastest that passed\n",
		       d->checks[kept].rank + 1, d->checks[kept].flat ? " with its branch-light copies" : "");
	else if (n)
		printf("  search: every table lost on the workload: the baseline stays\n");
	free(e);
	return try_grid_gate(f, t, d, noise, placement_sd, longest);
}
