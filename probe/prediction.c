/* How far the probe's timing of a table is from the code gen writes for
 * it (prediction.h). */
#include "prediction.h"

#include "compiled.h"
#include "placed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What check_prediction prints of one table: each copy's time (the median
 * of its PLACES timings), the model over the entry, and the spread of the
 * entry's own timings, the most over the least, the floor of that ratio. */
struct prediction {
	struct workload_ticks shipped, model, model_over_shipped, shipped_spread;
};

static double spread3(double a, double b, double c)
{
	double most = a > b ? (a > c ? a : c) : (b > c ? b : c), least = a < b ? (a < c ? a : c) : (b < c ? b : c);
	return most / least;
}

/* table, installed and patched just before: the flavor's entry as shipped
 * and as the probe compiles the same table, each timed PLACES times in
 * turns with the forward routine on both streams, never the two in turns
 * with each other (time_placed); 1 with all in p, 0 where the probe
 * compiles it as the baseline. */
static int shipped_and_model(const struct probe_flavor *f, const struct derived_rule *table,
			     int (*install)(const struct probe_flavor *f, unsigned int i, struct derived_rule *out),
			     unsigned int i, struct prediction *p)
{
	struct derived_rule again;
	/* table_copy is now the patched entry, which runs the routines gen
	 * compiled for this rule; the probe's copies align as it says. */
	install(f, i, &again);
	int baseline = compiles_to_baseline(f, table);
	/* Where the rule copies forward everywhere, the drop-in library runs
	 * the C library's memmove, and the probe predicts that very code. */
	copy_fn shipped = baseline && f->moves ? f->baseline_copy() : f->shipped_copy();
	copy_fn thrice[PLACES] = {shipped, shipped, shipped};
	struct workload_ticks t[1 + PLACES];
	struct streams *s = streams_new();
	if (time_placed(f, s, table, 1, 0, thrice, PLACES, t))
		exit(1);
	streams_free(s);
	p->model = t[0];
	p->shipped = (struct workload_ticks){median3(t[1].random, t[2].random, t[3].random),
					     median3(t[1].sorted, t[2].sorted, t[3].sorted)};
	p->model_over_shipped = (struct workload_ticks){p->model.random / p->shipped.random,
							p->model.sorted / p->shipped.sorted};
	p->shipped_spread = (struct workload_ticks){spread3(t[1].random, t[2].random, t[3].random),
						    spread3(t[1].sorted, t[2].sorted, t[3].sorted)};
	f->force_strategy(BASELINE_STRATEGY);
	return !baseline;
}

static void print_prediction(const char *what, const struct prediction *p)
{
	printf("  %s, shipped: %.2f ticks a call on random sizes, %.2f sorted; as the probe compiles %s: %.2f, %.2f\n"
	       "    (medians of %d timings, each in turns with rep movsb over %d rounds) the probe's over the shipped: "
	       "%.3fx random, %.3fx sorted; the shipped's own timings spread %.3fx, %.3fx\n",
	       what, p->shipped.random, p->shipped.sorted, strncmp(what, "routines", 8) ? "it" : "them",
	       p->model.random, p->model.sorted, PLACES, PAIRED_ROUNDS, p->model_over_shipped.random,
	       p->model_over_shipped.sorted, p->shipped_spread.random, p->shipped_spread.sorted);
}

static int install_own(const struct probe_flavor *f, unsigned int i, struct derived_rule *out)
{
	(void)i;
	return f->install_own(out);
}

static int install_at(const struct probe_flavor *f, unsigned int i, struct derived_rule *out)
{
	const char *routines;
	return f->install_at(i, out, &routines);
}

void check_prediction(const struct probe_flavor *f)
{
	struct derived_rule own, r;
	struct prediction p;
	const char *seen[64], *routines = "";
	char what[96];
	int n_seen = 0, got;
	derived_baseline(&own);
	if (!f->install_own(&own)) {
		f->force_strategy(BASELINE_STRATEGY);
		printf("  this CPU runs the baseline: no compiled table to check the prediction against\n");
	} else {
		int compiled = shipped_and_model(f, &own, install_own, 0, &p);
		if (!compiled)
			printf("  this CPU's rule in out/ copies forward everywhere: it ships as the baseline (%s)\n",
			       f->moves ? "the C library's memmove, in the drop-in library" : "the entries' own rep movsb");
		print_prediction("this CPU's rule in out/", &p);
	}
	/* The same for each routine set of out/ at this CPU's isa, whatever
	 * core it was measured on: how the probe models a compiled tree is the
	 * code's, not the core's. */
	for (unsigned int i = 0; (got = f->install_at(i, &r, &routines)) >= 0 && n_seen < 64; i++) {
		int again = 0;
		for (int k = 0; k < n_seen; k++)
			again |= strcmp(seen[k], routines) == 0;
		if (!got || again || strcmp(routines, "baseline") == 0)
			continue;
		seen[n_seen++] = routines;
		if (!shipped_and_model(f, &r, install_at, i, &p))
			continue;
		snprintf(what, sizeof what, "routines %s", routines);
		print_prediction(what, &p);
	}
	f->force_strategy(BASELINE_STRATEGY);
}
