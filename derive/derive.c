#include "derive.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS N_COPY_STRATEGIES
#define NC N_DISTANCE_CLASSES

#define STRATEGY_LIMITS(id, name, min_n, max_n, ...) {min_n, max_n},
static const struct {
	int min_n, max_n;
} limits[NS] = {STRATEGIES(STRATEGY_LIMITS)};
#undef STRATEGY_LIMITS
#define CLASS_NAME(id, name) name,
static const char *const class_name[NC] = {DISTANCE_CLASSES(CLASS_NAME)};
#undef CLASS_NAME

#define EXCESS_WEIGHT 10
/* What a band past the first costs, per point: bands come only where they
 * buy real time. */
#define BAND_PRICE 2e-4
#define HARM_WEIGHT 30

/* The coarse middle the probe measures, far from any distance that stalls:
 * what the elsewhere class is judged on. */
#define REF_LO 161
#define REF_HI 3935

/* The measurements as a grid of points (length, distance), one time per
 * strategy, 0 where it was not measured. A point is where the baseline was. */
struct grid {
	unsigned int *len; /* sorted distinct lengths */
	size_t nl, nd;
	unsigned int dist[4096]; /* sorted distinct distances */
	int di[4096];            /* a distance's index, -1 if not measured */
	double *t;
};

static double at(const struct grid *g, size_t li, size_t di, int s)
{
	return g->t[(li * g->nd + di) * NS + (size_t)s];
}

static double best_at(const struct grid *g, size_t li, size_t di)
{
	double b = 0;
	for (int s = 0; s < NS; s++)
		if (at(g, li, di, s) > 0 && (b == 0 || at(g, li, di, s) < b))
			b = at(g, li, di, s);
	return b;
}

static int valid(int s, unsigned int lo, unsigned int hi)
{
	return lo >= (unsigned int)limits[s].min_n && (limits[s].max_n < 0 || hi <= (unsigned int)limits[s].max_n);
}

/* Appends to the note; truncates rather than overflows. */
static void say(struct derived_rule *r, const char *fmt, ...)
{
	size_t used = strlen(r->note);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->note + used, sizeof r->note - used, fmt, ap);
	va_end(ap);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int build(const struct table *t, struct grid *g, struct derived_rule *r)
{
	unsigned char seen[4096] = {0};
	if (!(g->len = malloc(t->n * sizeof *g->len)))
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		const struct row *w = &t->rows[i];
		if (w->strategy < 0 || w->strategy >= NS || w->distance > 4095 || !(w->ticks > 0)) {
			say(r, "row %zu has no strategy, distance or time the derivation can use", i + 1);
			return -1;
		}
		g->len[i] = w->length;
		seen[w->distance] = 1;
	}
	qsort(g->len, t->n, sizeof *g->len, cmp_uint);
	for (size_t i = 0; i < t->n; i++)
		if (!g->nl || g->len[g->nl - 1] != g->len[i])
			g->len[g->nl++] = g->len[i];
	for (unsigned int d = 0; d < 4096; d++) {
		g->di[d] = seen[d] ? (int)g->nd : -1;
		if (seen[d])
			g->dist[g->nd++] = d;
	}
	if (!(g->t = calloc(g->nl * g->nd * NS, sizeof *g->t)))
		return -1;
	/* Of two rows for one key the first counts, as in table_find. */
	for (size_t i = t->n; i-- > 0;) {
		const struct row *w = &t->rows[i];
		size_t li = (size_t)((unsigned int *)bsearch(&w->length, g->len, g->nl, sizeof *g->len, cmp_uint) - g->len);
		g->t[(li * g->nd + (size_t)g->di[w->distance]) * NS + (size_t)w->strategy] = w->ticks;
	}
	for (size_t li = 0; li < g->nl; li++) {
		int refs = 0;
		for (size_t di = 0; di < g->nd; di++) {
			if (best_at(g, li, di) > 0 && at(g, li, di, BASELINE_STRATEGY) == 0) {
				say(r, "%s was not measured at length %u, distance %u; every point needs the baseline",
				    strategy_name[BASELINE_STRATEGY], g->len[li], g->dist[di]);
				return -1;
			}
			refs += at(g, li, di, BASELINE_STRATEGY) > 0 && g->dist[di] >= REF_LO && g->dist[di] <= REF_HI;
		}
		if (!refs) {
			say(r, "length %u has no distance in %d..%d measured to stand for the elsewhere class", g->len[li],
			    REF_LO, REF_HI);
			return -1;
		}
	}
	return 0;
}

/* The copy the elsewhere class would make at length li: the lowest
 * geometric mean over the coarse middle, the baseline unless another is
 * faster by more than the noise. */
static int best_else(const struct grid *g, size_t li, double noise)
{
	double sum[NS] = {0};
	int whole[NS], best = BASELINE_STRATEGY;
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
	return (sum[best] - sum[BASELINE_STRATEGY]) / (double)n < -log1p(noise) ? best : BASELINE_STRATEGY;
}

/* The end of the run of measured distances from the source (d = 1 up, or
 * d = 4095 down) where, at some length, the elsewhere copy is slower than
 * the best by more than the noise, as a bound 0..CLASS_BOUND_MAX. A
 * distance not measured does not break the run. The bounds are at most
 * 2047, so above (d <= 2047) and below (d >= 2049) never meet. */
static unsigned int run(const struct grid *g, const int *other, double noise, int below, double *worst, int *who)
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

/* Per length and class, summed over the points: log(t_s / t_best),
 * log(t_s / t_baseline) and how many points measured s; prefix sums over
 * the sorted lengths, so a band's cell is a difference. The logs are
 * weighted so that every length weighs alike, however many distances the
 * probe timed at it (512 at a few lengths, 128 at most, 13 past 1 MiB):
 * counted point by point, 8 MiB weighed a fortieth of 32 bytes, and a band
 * past the caches, where streaming stores win at few points, bought less
 * than one that split off a single length below 64 bytes
 * (tests/fixtures/streaming_win.csv, which test_derive derives). */
struct acc {
	double vs_best[NS], vs_base[NS], weight;
	size_t n[NS], points;
};

/* The worst loss to the baseline, log(t_s / t_baseline), of each strategy
 * at each (length, class), and over runs of 2^k lengths, so that a band's
 * worst is two lookups: harm[(k * nl + li) * NC + c].of[s] covers lengths
 * li..li + 2^k - 1. */
struct harm {
	double of[NS];
};

struct fit_tables {
	const struct acc *pre; /* prefix sums over the lengths */
	struct harm *harm;
	size_t nl;
};

static double worst_harm(const struct fit_tables *f, size_t i, size_t j, int c, int s)
{
	int k = 0;
	while ((size_t)2 << k <= j - i + 1)
		k++;
	double a = f->harm[((size_t)k * f->nl + i) * NC + (size_t)c].of[s];
	double b = f->harm[((size_t)k * f->nl + j + 1 - ((size_t)1 << k)) * NC + (size_t)c].of[s];
	return fmax(a, b);
}

/* A cell's strategy (cost in *cost), or -1 when it has no points: among the
 * strategies valid for lengths lo..hi, measured at every point and slower
 * than the baseline by no more than the noise at any point, the lowest
 * geometric mean against the best, if it beats the baseline by more than
 * the noise; ties go to the baseline, and, in a class other than elsewhere,
 * to prefer, the elsewhere class's strategy. A strategy that wins on the
 * whole but loses at some point of the cell is not taken: a table never makes a copy
 * slower than the baseline would (the table recorded in
 * evidence/zen3-2026-11-30-d09b89 takes the descending copy for 161..256
 * bytes, which loses up to 16% to rep movsb at 256 bytes and d = 40..63,
 * as its run.archive shows; tests/fixtures/harm_somewhere.csv). */
static int cell(const struct fit_tables *f, size_t i, size_t j, int c, unsigned int lo, unsigned int hi,
		double noise, int prefer, double *cost)
{
	const struct acc *a = &f->pre[i * NC + (size_t)c], *b = &f->pre[(j + 1) * NC + (size_t)c];
	size_t points = b->points - a->points;
	int best = BASELINE_STRATEGY;
	*cost = 0;
	if (!points)
		return -1;
	for (int s = 0; s < NS; s++)
		if (valid(s, lo, hi) && b->n[s] - a->n[s] == points &&
		    b->vs_best[s] - a->vs_best[s] < b->vs_best[best] - a->vs_best[best] &&
		    worst_harm(f, i, j, c, s) <= log1p(noise))
			best = s;
	if ((b->vs_base[best] - a->vs_base[best]) / (b->weight - a->weight) >= -log1p(noise))
		best = BASELINE_STRATEGY;
	/* A class that copies like the elsewhere class needs no distance at
	 * run time: its own copy must win beyond the noise, as any copy must
	 * against the baseline, which keeps its ties. */
	if (prefer >= 0 && best != BASELINE_STRATEGY && prefer != best && valid(prefer, lo, hi) &&
	    b->n[prefer] - a->n[prefer] == points &&
	    worst_harm(f, i, j, c, prefer) <= log1p(noise) &&
	    (b->vs_best[prefer] - a->vs_best[prefer]) - (b->vs_best[best] - a->vs_best[best]) <
		    log1p(noise) * (b->weight - a->weight))
		best = prefer;
	*cost = b->vs_best[best] - a->vs_best[best];
	return best;
}

/* The band of length indices i..j, the last one when last; its cost. A
 * class without points there copies as elsewhere does. */
static double band(const struct grid *g, const struct fit_tables *f, size_t i, size_t j, int last, double noise,
		   struct band *out)
{
	double total = 0, cost;
	out->lo = i ? g->len[i - 1] + 1 : 0;
	out->hi = last ? BAND_UNBOUNDED : g->len[j];
	int other = cell(f, i, j, CLASS_ELSEWHERE, out->lo, out->hi, noise, -1, &total);
	if (other < 0) /* the classes near the source took every distance measured */
		other = BASELINE_STRATEGY;
	for (int c = 0; c < NC; c++) {
		int s = c == CLASS_ELSEWHERE ? other : cell(f, i, j, c, out->lo, out->hi, noise, other, &cost);
		out->strategy[c] = s < 0 ? other : s;
		total += c == CLASS_ELSEWHERE ? 0 : cost;
	}
	return total;
}

/* The split of the sorted lengths into at most MAX_BANDS bands with the
 * least cost, each band past the first charged a five-thousandth of a log per
 * point so that bands come only where they buy real time. f[b * cols + j]:
 * lengths 0..j-1 in b bands, none of them the last. */
static int segment(const struct grid *g, const struct fit_tables *pre, size_t points, double noise,
		   struct derived_rule *r, double *total)
{
	size_t nl = g->nl, cols = nl + 1, start = 0;
	struct {
		double cost;
		size_t from; /* where the last of the b bands starts */
	} *f = malloc(MAX_BANDS * cols * sizeof *f);
	double best = HUGE_VAL;
	struct band scratch;
	int nb = 0;
	if (!f)
		return -1;
	for (size_t k = 0; k < MAX_BANDS * cols; k++)
		f[k].cost = k ? HUGE_VAL : 0;
	for (int b = 0; b + 1 < MAX_BANDS; b++)
		for (size_t j = 0; j < nl; j++)
			for (size_t e = j; f[b * cols + j].cost < HUGE_VAL && e + 1 < nl; e++) {
				double c = f[b * cols + j].cost + band(g, pre, j, e, 0, noise, &scratch);
				if (c < f[(b + 1) * cols + e + 1].cost)
					f[(b + 1) * cols + e + 1].cost = c, f[(b + 1) * cols + e + 1].from = j;
			}
	for (int b = 0; b < MAX_BANDS; b++)
		for (size_t j = 0; j < nl; j++) {
			if (f[b * cols + j].cost == HUGE_VAL)
				continue;
			double c = f[b * cols + j].cost + band(g, pre, j, nl - 1, 1, noise, &scratch) +
				   BAND_PRICE * (double)points * b;
			if (c < best)
				best = c, nb = b, start = j;
		}
	*total = best;
	r->n_bands = nb + 1;
	band(g, pre, start, nl - 1, 1, noise, &r->bands[nb]);
	for (size_t e = start, j; nb > 0; nb--, e = j)
		band(g, pre, (j = f[nb * cols + e].from), e - 1, 0, noise, &r->bands[nb - 1]);
	free(f);
	/* Neighbours that chose alike are one band. */
	int m = 0;
	for (int i = 0; i < r->n_bands; i++)
		if (m && memcmp(r->bands[m - 1].strategy, r->bands[i].strategy, sizeof r->bands[i].strategy) == 0)
			r->bands[m - 1].hi = r->bands[i].hi;
		else
			r->bands[m++] = r->bands[i];
	r->n_bands = m;
	return 0;
}

/* What the rule costs at every point, against the best and the baseline. */
static int regret(const struct grid *g, size_t points, struct derived_rule *r)
{
	double *v = malloc((points ? points : 1) * sizeof *v);
	size_t k = 0;
	if (!v)
		return -1;
	for (size_t li = 0; li < g->nl; li++)
		for (size_t di = 0; di < g->nd; di++) {
			double base = at(g, li, di, BASELINE_STRATEGY);
			int s = rule_choice(r, g->len[li], g->dist[di]);
			if (base == 0)
				continue;
			if (at(g, li, di, s) == 0) {
				say(r, "the rule's %s was not measured at length %u, distance %u", strategy_name[s],
				    g->len[li], g->dist[di]);
				free(v);
				return -1;
			}
			v[k] = at(g, li, di, s) / best_at(g, li, di);
			r->mean_regret += log(v[k]);
			if (v[k] > r->worst_regret)
				r->worst_regret = v[k], r->worst_length = g->len[li], r->worst_distance = g->dist[di];
			r->worst_vs_baseline = fmax(r->worst_vs_baseline, at(g, li, di, s) / base);
			k++;
		}
	r->median_regret = median(v, k); /* sorts v */
	r->p99_regret = k ? v[(k - 1) * 99 / 100] : 1;
	r->points = k;
	r->over_5pct = 0;
	for (size_t i = 0; i < k; i++)
		r->over_5pct += v[i] > 1.05;
	r->mean_regret = exp(r->mean_regret / (double)(k ? k : 1));
	free(v);
	return 0;
}

/* Fits bands to the class bounds in r: r->bands, and the cost in *cost.
 * Returns the number of points, 0 on failure. */
static long fit(const struct grid *g, struct derived_rule *r, double *cost)
{
	size_t points = 0, levels = 1;
	while ((size_t)1 << levels <= g->nl)
		levels++;
	struct acc *pre = calloc((g->nl + 1) * NC, sizeof *pre);
	struct harm *harm = malloc(levels * g->nl * NC * sizeof *harm);
	if (!pre || !harm) {
		free(pre);
		free(harm);
		return 0;
	}
	for (size_t k = 0; k < g->nl * NC; k++)
		for (int s = 0; s < NS; s++)
			harm[k].of[s] = -HUGE_VAL;
	for (size_t li = 0; li < g->nl; li++)
		for (size_t di = 0; di < g->nd; di++)
			points += at(g, li, di, BASELINE_STRATEGY) > 0;
	for (size_t li = 0; li < g->nl; li++) {
		memcpy(&pre[(li + 1) * NC], &pre[li * NC], NC * sizeof *pre);
		size_t here = 0;
		for (size_t di = 0; di < g->nd; di++)
			here += at(g, li, di, BASELINE_STRATEGY) > 0;
		/* The weights sum to the number of points, which BAND_PRICE is per. */
		double w = here ? (double)points / (double)g->nl / (double)here : 0;
		for (size_t di = 0; di < g->nd; di++) {
			double tb = best_at(g, li, di), base = at(g, li, di, BASELINE_STRATEGY);
			struct acc *a = &pre[(li + 1) * NC + rule_class(r, g->dist[di])];
			if (base == 0)
				continue;
			a->points++, a->weight += w;
			for (int s = 0; s < NS; s++)
				if (at(g, li, di, s) > 0) {
					/* A regret beyond the noise weighs ten times, a loss to the
					 * baseline beyond it thirty: the fit is judged by its worst
					 * points as well as its sum, and it should do no harm. */
					double lr = log(at(g, li, di, s) / tb), lb = log(at(g, li, di, s) / base);
					a->vs_best[s] += w * (lr + EXCESS_WEIGHT * fmax(0, lr - log1p(r->noise)) +
							      HARM_WEIGHT * fmax(0, lb - log1p(r->noise)));
					a->vs_base[s] += w * log(at(g, li, di, s) / base);
					a->n[s]++;
					double *h = &harm[li * NC + rule_class(r, g->dist[di])].of[s];
					*h = fmax(*h, lb);
				}
		}
	}
	for (size_t k = 1; k < levels; k++)
		for (size_t li = 0; li + ((size_t)1 << k) <= g->nl; li++)
			for (int c = 0; c < NC; c++)
				for (int s = 0; s < NS; s++)
					harm[(k * g->nl + li) * NC + (size_t)c].of[s] =
						fmax(harm[((k - 1) * g->nl + li) * NC + (size_t)c].of[s],
						     harm[((k - 1) * g->nl + li + ((size_t)1 << (k - 1))) * NC + (size_t)c].of[s]);
	struct fit_tables f = {pre, harm, g->nl};
	int rc = segment(g, &f, points, r->noise, r, cost);
	free(pre);
	free(harm);
	return rc ? 0 : (long)points;
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
static int near_class(const struct grid *g, const int *other, struct derived_rule *r, double *best)
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
			if (!(points = fit(g, r, &cost)))
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

static int derive(const struct table *t, struct grid *g, struct derived_rule *r)
{
	double *v = malloc(t->n * sizeof *v), worst[2] = {0, 0};
	if (!v)
		return -1;
	/* The noise of copies long enough to time well: a point of a few ticks
	 * moves by a large fraction when one tick moves. */
	size_t nv = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].ticks >= DERIVE_NOISE_MIN_TICKS)
			v[nv++] = t->rows[i].spread;
	if (!nv)
		for (; nv < t->n; nv++)
			v[nv] = t->rows[nv].spread;
	r->noise = fmax(DERIVE_NOISE_FLOOR, median(v, nv));
	free(v);
	if (build(t, g, r))
		return -1;

	int *other = calloc(g->nl, sizeof *other), who[2] = {BASELINE_STRATEGY, BASELINE_STRATEGY};
	if (!other)
		return -1;
	for (size_t li = 0; li < g->nl; li++)
		other[li] = best_else(g, li, r->noise);
	r->zero_mod = 4096;
	r->above_max = run(g, other, r->noise, 0, &worst[0], &who[0]);
	r->below_max = run(g, other, r->noise, 1, &worst[1], &who[1]);

	/* The run of distances that stall bounds each class; within it, the
	 * bound that costs least overall, since a distance that stalls only at
	 * some lengths may cost more inside the class than outside it. */
	unsigned int runs[2] = {r->above_max, r->below_max};
	double cost, best_cost = HUGE_VAL;
	for (int side = 0; side < 2; side++) {
		unsigned int keep = side ? r->below_max : r->above_max;
		for (unsigned int k = 0; k <= runs[side]; k++) {
			if (k && g->di[side ? 4096 - k : k] < 0)
				continue;
			if (side)
				r->below_max = k;
			else
				r->above_max = k;
			if (!fit(g, r, &cost)) {
				free(other);
				return -1;
			}
			if (cost < best_cost - 1e-9)
				best_cost = cost, keep = k;
		}
		if (side)
			r->below_max = keep;
		else
			r->above_max = keep;
	}
	/* Class zero widened to every multiple of 64, 32, 16 or 8: a core may
	 * copy mutually aligned buffers its own way (rep movsb on a Zen 3 guest
	 * took 127-129 ticks a call at 4 KiB, d = 0, 32 or 64, and 178-180 at
	 * d = 33 or 63: evidence/zen3-2026-11-30-50896c). Taken only where it
	 * buys as much as a band
	 * would have to. */
	static const int zero_mods[] = {ZERO_MOD_VALUES};
	int keep_mod = 4096;
	for (size_t i = 1; i < sizeof zero_mods / sizeof zero_mods[0]; i++) {
		/* A multiple inside the above or below class would leave that
		 * class for zero, which tests first: the table recorded in
		 * evidence/zen3-2026-11-30-13da92 takes every multiple of 8
		 * with the above class at 1..55, and rep movsb at d = 24 takes
		 * 25.6x the best at 4 KiB there (its summary.md); the fixture
		 * aligned_stall.csv tests it. */
		if ((unsigned int)zero_mods[i] <= r->above_max || (unsigned int)zero_mods[i] <= r->below_max)
			continue;
		r->zero_mod = zero_mods[i];
		long n = fit(g, r, &cost);
		if (!n) {
			free(other);
			return -1;
		}
		if (cost < best_cost - BAND_PRICE * (double)n)
			best_cost = cost, keep_mod = zero_mods[i];
	}
	r->zero_mod = keep_mod;
	/* Past the above class, distances where the elsewhere copy loses may
	 * need a copy of their own: on a Zen 3 guest the descending copy took
	 * 0.8-0.95x the time of rep movsb at 96 and 256 bytes from d = 86 up,
	 * and up to 1.2x at most of d = 33..85, where rep movsb won
	 * (evidence/zen3-2026-11-30-72cc3c, its run.archive).
	 * The above bound is chosen again with it: a near class may begin
	 * where no above class would have ended. */
	int failed = near_class(g, other, r, &best_cost);
	free(other);
	if (failed)
		return -1;
	size_t points;
	if ((points = (size_t)fit(g, r, &cost)) == 0 || regret(g, points, r))
		return -1;
	for (int i = 0; i < r->n_bands; i++)
		for (int c = 0; c < NC; c++)
			if (r->bands[i].strategy[c] == STRATEGY_FORWARD_ALIGNED)
				r->align_dst = PROBE_ALIGN_DST;

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
	for (int i = 0; i < r->n_bands; i++) {
		const struct band *b = &r->bands[i];
		say(r, "%s%u..", i ? "; " : "Lengths ", b->lo);
		if (b->hi != BAND_UNBOUNDED)
			say(r, "%u", b->hi);
		say(r, ": %s", strategy_name[b->strategy[CLASS_ELSEWHERE]]);
		for (int c = 0; c < NC; c++)
			if (b->strategy[c] != b->strategy[CLASS_ELSEWHERE])
				say(r, ", %s %s", class_name[c], strategy_name[b->strategy[c]]);
	}
	say(r, " (ties within %.0f%% go to %s). Against the best measured copy the rule is at worst %.3fx", r->noise * 100,
	    strategy_name[BASELINE_STRATEGY], r->worst_regret);
	if (r->worst_regret > 1)
		say(r, " (length %u, distance %u)", r->worst_length, r->worst_distance);
	say(r, ", at the median %.3fx; against %s at worst %.3fx.", r->median_regret, strategy_name[BASELINE_STRATEGY],
	    r->worst_vs_baseline);
	return 0;
}

int derive_rule(const struct table *t, struct derived_rule *out)
{
	memset(out, 0, sizeof *out);
	if (!t->n) {
		say(out, "no measurements");
		return -1;
	}
	struct grid *g = calloc(1, sizeof *g); /* 32 KiB of distance maps: not on the stack */
	int rc = g ? derive(t, g, out) : -1;
	if (rc && !out->note[0])
		say(out, "out of memory");
	if (g) {
		free(g->len);
		free(g->t);
	}
	free(g);
	return rc;
}

int rule_regret(const struct table *t, struct derived_rule *r)
{
	struct grid *g = calloc(1, sizeof *g);
	size_t points = 0;
	int rc = -1;
	char note[sizeof r->note];
	memcpy(note, r->note, sizeof note);
	r->note[0] = '\0';
	r->worst_regret = r->median_regret = r->mean_regret = r->worst_vs_baseline = r->p99_regret = 0;
	if (g && build(t, g, r) == 0) {
		for (size_t li = 0; li < g->nl; li++)
			for (size_t di = 0; di < g->nd; di++)
				points += at(g, li, di, BASELINE_STRATEGY) > 0;
		rc = regret(g, points, r);
	}
	if (rc == 0)
		memcpy(r->note, note, sizeof note);
	if (g) {
		free(g->len);
		free(g->t);
	}
	free(g);
	return rc;
}

enum distance_class rule_class(const struct derived_rule *r, unsigned int d)
{
	d %= 4096;
	if (d % (r->zero_mod ? (unsigned int)r->zero_mod : 4096u) == 0)
		return CLASS_ZERO;
	if (d <= r->above_max)
		return CLASS_ABOVE;
	if (d <= r->near_max)
		return CLASS_NEAR;
	if (r->below_max && d >= 4096 - r->below_max)
		return CLASS_BELOW;
	return CLASS_ELSEWHERE;
}

int rule_choice(const struct derived_rule *r, unsigned int n, unsigned int d)
{
	for (int i = 0; i < r->n_bands; i++)
		if (n >= r->bands[i].lo && n <= r->bands[i].hi)
			return r->bands[i].strategy[rule_class(r, d)];
	return BASELINE_STRATEGY;
}
