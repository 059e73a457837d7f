/* Where the distance classes near the source end: the copy the elsewhere
 * class makes at each length, the runs of distances from the source where
 * it stalls, and a near class past the above one. */
#include "grid.h"

#include <math.h>
#include <string.h>

/* The copy the elsewhere class would make at length li: the lowest
 * geometric mean over the coarse middle, what the grid judges that length
 * against (base_at) unless another is faster by more than the noise. */
int best_else(const struct grid *g, size_t li, double noise)
{
	double sum[NS] = {0};
	int whole[NS], best = base_at(g, li);
	size_t n = 0;
	for (int s = 0; s < NS; s++)
		whole[s] = 1;
	for (size_t di = 0; di < g->nd; di++) {
		if (g->dist[di] < REF_LO || g->dist[di] > REF_HI || at(g, li, di, BASELINE_STRATEGY) == 0)
			continue;
		n++;
		for (int s = 0; s < NS; s++)
			if (at(g, li, di, s) > 0)
				sum[s] += log(at(g, li, di, s));
			else
				whole[s] = 0;
	}
	for (int s = 0; s < NS; s++)
		if (whole[s] && sum[s] < sum[best])
			best = s;
	return (sum[best] - sum[base_at(g, li)]) / (double)n < -log1p(noise) ? best : base_at(g, li);
}

/* The end of the run of measured distances from the source (d = 1 up, or
 * d = 4095 down) where, at some length, the elsewhere copy is slower than
 * the best by more than the noise, as a bound 0..CLASS_BOUND_MAX. A
 * distance not measured does not break the run. The bounds are at most
 * 2047, so above (d <= 2047) and below (d >= 2049) never meet. */
unsigned int stall_run(const struct grid *g, const int *other, double noise, int below, double *worst, int *who)
{
	unsigned int bound = 0;
	for (unsigned int k = 1; k <= CLASS_BOUND_MAX; k++) {
		int di = g->di[below ? 4096 - k : k], stalls = 0;
		if (di < 0)
			continue;
		for (size_t li = 0; li < g->nl; li++) {
			double te = at(g, li, (size_t)di, other[li]), tb = best_at(g, li, (size_t)di);
			if (te > 0 && te > tb * (1 + noise)) {
				stalls = 1;
				if (te / tb > *worst)
					*worst = te / tb, *who = other[li];
			}
		}
		if (!stalls)
			break;
		bound = k;
	}
	return bound;
}

/* Whether at distance index di, at some length, the elsewhere copy is slower
 * than the best by more than the noise. */
static int stalls_at(const struct grid *g, const int *other, double noise, size_t di)
{
	for (size_t li = 0; li < g->nl; li++) {
		double te = at(g, li, di, other[li]), tb = best_at(g, li, di);
		if (te > 0 && te > tb * (1 + noise))
			return 1;
	}
	return 0;
}

/* Sets r->above_max and r->near_max to the pair that costs least, where a
 * near class lowers the cost from *best by more than a band's price; *best
 * becomes the cost taken. The bounds tried are 0, the above bound found,
 * and each end of a run of finely measured distances (up to REF_LO) that
 * stall or do not: a class edge anywhere else would split a run whose
 * distances behave alike. The above bound stays below zero_mod, as derive
 * keeps it: class zero is tested first. */
int near_class(const struct grid *g, const int *other, struct derived_rule *r, double *best)
{
	/* 0, at most one end per distance below REF_LO, and the above bound */
	unsigned int ends[REF_LO + 2], n_ends = 0, above = r->above_max, near = 0, prev = 0;
	const unsigned int above_was = r->above_max;
	int prev_stall = -1;
	double lowest = HUGE_VAL, cost;
	long points = 0;
	ends[n_ends++] = 0;
	for (unsigned int d = 1; d < REF_LO; d++) {
		if (g->di[d] < 0 || d % (unsigned int)r->zero_mod == 0)
			continue;
		int st = stalls_at(g, other, r->noise, (size_t)g->di[d]);
		if (prev_stall >= 0 && st != prev_stall)
			ends[n_ends++] = prev;
		prev = d, prev_stall = st;
	}
	if (prev)
		ends[n_ends++] = prev;
	if (above_was && ends[n_ends - 1] > above_was) {
		unsigned int i = n_ends++;
		for (; i > 0 && ends[i - 1] > above_was; i--)
			ends[i] = ends[i - 1];
		if (ends[i - 1] == above_was)
			memmove(&ends[i], &ends[i + 1], (--n_ends - i) * sizeof *ends);
		else
			ends[i] = above_was;
	}
	for (unsigned int i = 0; i < n_ends && ends[i] < (unsigned int)r->zero_mod; i++)
		for (unsigned int j = i + 1; j < n_ends; j++) {
			r->above_max = ends[i];
			r->near_max = ends[j];
			if (!(points = fit_bands(g, r, &cost)))
				return -1;
			if (cost < lowest - 1e-9)
				lowest = cost, above = ends[i], near = ends[j];
		}
	if (near && lowest < *best - BAND_PRICE * (double)points)
		r->above_max = above, r->near_max = near, *best = lowest;
	else
		r->above_max = above_was, r->near_max = 0;
	return 0;
}
