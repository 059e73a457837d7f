/* What the fit weighs (grid.h): each point's weight, by its length alike
 * or as often as the size profile calls it, and what a split of the
 * lengths and a test of the distance cost in the same units. */
#include "grid.h"

#include "../common/size_profile.h"

#include <math.h>
#include <stdlib.h>

/* Where the lengths weigh as the profile calls them, the share of the
 * weight that still lies on every length alike, so that a length the
 * profile never calls (it calls none past 240 bytes) still takes its best
 * copy: a band past the caches whose streaming stores win 10% at 5 of
 * some 100 lengths buys 0.1 * 5 / 100 * 0.1 = 5e-4 a point, over the
 * BAND_PRICE of 2e-4 it pays. */
#define PROFILE_FLOOR 0.1

/* What a band that starts at length index j costs (split[j], j > 0), or
 * HUGE_VAL where it would start inside one of cost->unsplit:
 * - the flat BAND_PRICE a point;
 * - at the weights every length shares alike, the dispatch's own cost,
 *   cost->multiple times cost->band_ticks, at every point of length index
 *   j or more. A call that long passes the band's compare; one shorter
 *   stops before it. So a split at 16 KiB costs a 16 KiB copy a fraction
 *   of a percent, and a split at 48 bytes costs every copy of 48 bytes and
 *   more what the compare and its mispredictions take from a copy of a few
 *   ticks;
 * - at the profile's weights, what the model charges (derive/model.h): a
 *   compare for each call of the profile that long, and a misprediction
 *   for min(p, 1 - p) of the calls, p of them that long, as if every call
 *   ran the compare, which the tree's first compare is; and the first
 *   split (split[nl + 1 + j]) a compare for each shorter call too.
 * test[j + 1] - test[i], where the lengths of indices i..j test the
 * distance: the same dispatch cost at each of their points, and a compare
 * for each of their calls of the profile. */
double *split_costs(const struct grid *g, const struct derive_cost *cost, size_t points,
			   const struct length_weights *w, double *test)
{
	double *split = calloc(2 * (g->nl + 1), sizeof *split), longer = 0;
	if (!split)
		return NULL;
	for (size_t li = g->nl; li-- > 0;) {
		double sum = 0;
		for (size_t di = 0; di < g->nd; di++)
			if (at(g, li, di, BASELINE_STRATEGY) > 0)
				sum += log1p(cost->band_ticks / best_at(g, li, di));
		split[li] = split[li + 1] + cost->multiple * w->alike[li] * sum;
		/* made prefix sums below */
		test[li] = cost->multiple * w->alike[li] * sum + w->per_tick * w->calls[li] * cost->compare_ticks;
	}
	for (size_t li = g->nl; li > 0; li--)
		test[li] = test[li - 1];
	test[0] = 0;
	for (size_t li = 1; li <= g->nl; li++)
		test[li] += test[li - 1];
	for (size_t li = g->nl; li-- > 1;) {
		longer += w->calls[li];
		split[li] += BAND_PRICE * (double)points +
			     w->per_tick * (cost->compare_ticks * longer + cost->mispredict_ticks * fmin(longer, 1 - longer));
		split[g->nl + 1 + li] = w->per_tick * cost->compare_ticks * (1 - longer);
		/* No band starts inside a run the workload kept whole. */
		for (int k = 0; k < cost->n_unsplit; k++)
			if (g->len[li - 1] + 1 > cost->unsplit[k].lo && g->len[li - 1] + 1 <= cost->unsplit[k].hi)
				split[li] = HUGE_VAL;
	}
	split[0] = 0; /* the first band: no split */
	return split;
}

/* Fills w with the weight of each of g's points, here[li] of them at
 * length index li and points in all, so that together they weigh points,
 * as the points counted one by one do: BAND_PRICE is a price per point,
 * and keeps its meaning whatever the weighting.
 * - LENGTHS_ALIKE: every length weighs alike, however many distances the
 *   probe timed at it (512 at a few lengths, 128 at most, 13 past 1 MiB).
 *   Counted point by point, 8 MiB weighed a fortieth of 32 bytes, and a
 *   band past the caches, where streaming stores win at few points,
 *   bought less than one that split off a single length below 64 bytes
 *   (tests/fixtures/streaming_win.csv, which test_derive derives).
 * - LENGTHS_PROFILE: the objective itself. A length weighs the calls of
 *   the size profile (common/size_profile.h) it stands for, those longer
 *   than the length before it and no longer, times its mean best time:
 *   a log regret so weighted is the ticks it adds to a call on the
 *   profile, and a split's cost (split_costs) the ticks its compare and
 *   its mispredictions add. PROFILE_FLOOR of the weight lies on every
 *   length alike. */
void length_weights(const struct grid *g, enum length_weighting how, size_t points, const size_t *here,
			   struct length_weights *w)
{
	double ticks_a_call = 0, profile = size_profile_weight(0, ~0u);
	for (size_t li = 0; li < g->nl; li++) {
		double ticks = 0; /* the mean best time at li, in point[li] until the weights */
		for (size_t di = 0; di < g->nd; di++)
			if (at(g, li, di, BASELINE_STRATEGY) > 0)
				ticks += best_at(g, li, di);
		w->point[li] = here[li] ? ticks / (double)here[li] : 0;
		unsigned int lo = li ? g->len[li - 1] + 1 : 0;
		w->calls[li] = how == LENGTHS_PROFILE && here[li] ? size_profile_weight(lo, g->len[li]) / profile : 0;
		ticks_a_call += w->calls[li] * w->point[li];
	}
	double alike = ticks_a_call > 0 ? PROFILE_FLOOR : 1;
	w->per_tick = ticks_a_call > 0 ? (double)points * (1 - PROFILE_FLOOR) / ticks_a_call : 0;
	for (size_t li = 0; li < g->nl; li++) {
		w->alike[li] = here[li] ? (double)points * alike / (double)g->nl / (double)here[li] : 0;
		/* the ticks its calls take on the profile, shared by its points */
		w->point[li] = w->alike[li] + (here[li] ? w->per_tick * w->calls[li] * w->point[li] / (double)here[li] : 0);
	}
}
