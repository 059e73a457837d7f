/* The derivation in turn: the noise, the grid, the class bounds, class
 * zero, the near class and the bands, then the note that says what was
 * found. */
#include "grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CLASS_NAME(id, name) name,
static const char *const class_name[NC] = {DISTANCE_CLASSES(CLASS_NAME)};
#undef CLASS_NAME

/* The noise of copies long enough to time well: a point of a few ticks
 * moves by a large fraction when one tick moves. */
static int measure_noise(const struct timings *t, struct derived_rule *r)
{
	double *v = malloc(t->n * sizeof *v);
	if (!v)
		return -1;
	size_t nv = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].ticks >= DERIVE_NOISE_MIN_TICKS)
			v[nv++] = t->rows[i].spread;
	if (!nv)
		for (; nv < t->n; nv++)
			v[nv] = t->rows[nv].spread;
	r->noise = fmax(DERIVE_NOISE_FLOOR, median_of(v, nv));
	free(v);
	return 0;
}

/* The run of distances that stall bounds each class; within it, the bound
 * that costs least overall, since a distance that stalls only at some
 * lengths may cost more inside the class than outside it. best_cost is
 * the table's cost with the bounds kept. */
static int choose_class_bounds(struct grid *g, struct derived_rule *r, double *best_cost)
{
	unsigned int runs[2] = {r->above_max, r->below_max};
	double cost;
	*best_cost = HUGE_VAL;
	for (int side = 0; side < 2; side++) {
		unsigned int keep = side ? r->below_max : r->above_max;
		for (unsigned int k = 0; k <= runs[side]; k++) {
			if (k && g->di[side ? 4096 - k : k] < 0)
				continue;
			if (side)
				r->below_max = k;
			else
				r->above_max = k;
			if (!fit_bands(g, r, &cost))
				return -1;
			if (cost < *best_cost - 1e-9)
				*best_cost = cost, keep = k;
		}
		if (side)
			r->below_max = keep;
		else
			r->above_max = keep;
	}
	return 0;
}

/* Class zero widened to every multiple of 64, 32, 16 or 8: a core may copy
 * mutually aligned buffers its own way, rep movsb faster where the
 * distance is a multiple of 32 (docs/notebook/derivation-2026-11.md, "The
 * measurements behind the rules"). Taken only where it buys as much as a
 * band would have to. */
static int choose_zero_mod(struct grid *g, struct derived_rule *r, double *best_cost)
{
	static const int zero_mods[] = {ZERO_MOD_VALUES};
	double cost;
	int keep_mod = 4096;
	for (size_t i = 1; i < sizeof zero_mods / sizeof zero_mods[0]; i++) {
		/* A multiple inside the above or below class would leave that
		 * class for zero, which tests first, and send a stalling
		 * distance to the zero class's copy (the notebook's "The
		 * measurements behind the rules"); the fixture
		 * aligned_stall.csv tests it. */
		if ((unsigned int)zero_mods[i] <= r->above_max || (unsigned int)zero_mods[i] <= r->below_max)
			continue;
		r->zero_mod = zero_mods[i];
		long n = fit_bands(g, r, &cost);
		if (!n)
			return -1;
		if (cost < *best_cost - BAND_PRICE * (double)n)
			*best_cost = cost, keep_mod = zero_mods[i];
	}
	r->zero_mod = keep_mod;
	return 0;
}

void say_bands(struct derived_rule *r)
{
	for (int i = 0; i < r->n_bands; i++) {
		const struct band *b = &r->bands[i];
		say(r, "%s%u..", i ? "; " : "Lengths ", b->lo);
		if (b->hi != BAND_UNBOUNDED)
			say(r, "%u", b->hi);
		say(r, ": %s", strategy_name[b->strategy[CLASS_ELSEWHERE]]);
		for (int c = 0; c < NC; c++)
			if (rule_class_live(r, c) && b->strategy[c] != b->strategy[CLASS_ELSEWHERE])
				say(r, ", %s %s", class_name[c], strategy_name[b->strategy[c]]);
	}
}

void say_kept(struct derived_rule *r)
{
	say(r, " The rule as kept: ");
	say_bands(r);
	say(r, ", against the best measured copy at worst %.3fx.", r->worst_regret);
}

/* The note: what each class and band is, and why, in words. who and worst
 * are the strategies that stall in the above and below classes and by how
 * much. */
static void describe(const struct grid *g, struct derived_rule *r, const int who[2], const double worst[2])
{
	static const char *const side[2] = {"above", "below"};
	unsigned int bound[2] = {r->above_max, r->below_max};
	for (int k = 0; k < 2; k++)
		if (bound[k])
			say(r, "The destination 1..%u bytes %s the source needs its own class: there %s takes up to %.1fx "
			       "the best. ",
			    bound[k], side[k], strategy_name[who[k]], worst[k]);
	if (r->near_max)
		say(r, "The destination %u..%u bytes above the source copies its own way again. ", r->above_max + 1,
		    r->near_max);
	if (!r->above_max && !r->below_max && !r->near_max)
		say(r, "No distance near the source needs its own class. ");
	if (r->zero_mod < 4096)
		say(r, "Class zero holds every multiple of %d: mutually aligned buffers copy their own way. ", r->zero_mod);
	say_bands(r);
	say(r, " (ties within %.0f%% go to %s", r->noise * 100, strategy_name[BASELINE_STRATEGY]);
	if (g->reference_from < g->nl)
		say(r, "; from %u bytes, where no tree's cost can change a verdict, ties and harm are judged against %s",
		    g->reference_from ? g->len[g->reference_from - 1] + 1 : 0, strategy_name[g->reference]);
	say(r, ").");
	if (r->cost.multiple > 0) {
		say(r, " Each band past the first was charged %.2f ticks a call, ", r->cost.multiple * r->cost.band_ticks);
		if (r->cost.multiple != 1)
			say(r, "%g times ", r->cost.multiple);
		say(r, "%s.", r->cost.measured ? "what a band cost a random-size workload as the probe measured it"
					      : "the default cost of a band (this run's probe did not measure it as the derivation uses it)");
	} else {
		say(r, " Bands were charged no dispatch cost.");
	}
	for (int k = 0; k < r->cost.n_unsplit; k++)
		say(r, " No band edge inside %u..%u: on the workload the table with one there was not faster.",
		    r->cost.unsplit[k].lo, r->cost.unsplit[k].hi);
	say(r, " Against the best measured copy the rule is at worst %.3fx", r->worst_regret);
	if (r->worst_regret > 1)
		say(r, " (length %u, distance %u)", r->worst_length, r->worst_distance);
	say(r, ", at the median %.3fx; against %s at worst %.3fx.", r->median_regret, strategy_name[BASELINE_STRATEGY],
	    r->worst_vs_baseline);
}

static int derive(const struct timings *t, struct grid *g, struct derived_rule *r)
{
	double worst[2] = {0, 0}, best_cost, cost;
	if (measure_noise(t, r) || grid_build(t, g, r))
		return -1;

	int *other = calloc(g->nl, sizeof *other), who[2] = {BASELINE_STRATEGY, BASELINE_STRATEGY};
	if (!other)
		return -1;
	for (size_t li = 0; li < g->nl; li++)
		other[li] = best_else(g, li, r->noise);
	r->zero_mod = 4096;
	r->above_max = stall_run(g, other, r->noise, 0, &worst[0], &who[0]);
	r->below_max = stall_run(g, other, r->noise, 1, &worst[1], &who[1]);
	/* Past the above class, distances where the elsewhere copy loses may
	 * need a copy of their own, the near class (the notebook's "The
	 * measurements behind the rules": a Zen 3 core's descending copy).
	 * The above bound is chosen again with it: a near class may begin
	 * where no above class would have ended. */
	int failed = choose_class_bounds(g, r, &best_cost) || choose_zero_mod(g, r, &best_cost) ||
		     near_class(g, other, r, &best_cost);
	free(other);
	if (failed)
		return -1;
	size_t points;
	if ((points = (size_t)fit_bands(g, r, &cost)) == 0 || grid_regret(g, points, r))
		return -1;
	rule_align_dst(r);
	describe(g, r, who, worst);
	return 0;
}

int derive_rule(const struct timings *t, const struct derive_cost *cost, struct derived_rule *out)
{
	static const struct derive_cost by_default = {.band_ticks = DERIVE_BAND_TICKS_DEFAULT, .multiple = 1};
	memset(out, 0, sizeof *out);
	out->cost = cost ? *cost : by_default;
	if (!t->n) {
		say(out, "no measurements");
		return -1;
	}
	struct grid *g = calloc(1, sizeof *g); /* 32 KiB of distance maps: not on the stack */
	int rc = g ? derive(t, g, out) : -1;
	if (rc && !out->note[0])
		say(out, "out of memory");
	if (g)
		grid_free(g);
	free(g);
	return rc;
}
