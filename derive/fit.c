/* Fits the bands to a rule's class bounds: in each band and class the
 * strategy of least weighted regret, and the split of the lengths into
 * bands that costs least. */
#include "grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EXCESS_WEIGHT 10
#define HARM_WEIGHT 30

_Static_assert(NS <= 32, "a band's valid strategies are a 32-bit mask");

/* The larger of a and b, both finite: inline, where libm's fmax is a call
 * in the fit's innermost loops. */
static inline double larger(double a, double b)
{
	return a > b ? a : b;
}

/* The strategies that serve length n, a bit each: those a cell may
 * choose (the small trial's substitute is not one, common/strategies.h). */
static unsigned int serving(unsigned int n)
{
	unsigned int mask = 0;
	for (int s = 0; s < NS; s++)
		if (s != STRATEGY_TRIAL_TO && strategy_serves(s, n))
			mask |= 1u << s;
	return mask;
}

/* Per length and class, summed over the points: log(t_s / t_best),
 * log(t_s / t_baseline) and how many points measured s, each weighted as
 * its length (length_weights); prefix sums over the sorted lengths, so a
 * band's cell is a difference. */
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
	/* split[j]: what a band that starts at length index j > 0 costs, in
	 * the units of the cells' costs. */
	const double *split;
	/* first[j]: what the first split costs beside, where it is at j: the
	 * tree's first compare, which every call runs (split_costs). */
	const double *first;
	/* test[j + 1] - test[i]: what a test of the distance costs the lengths
	 * of indices i..j, a compare's cost at each (split_costs). */
	const double *test;
	double log_noise; /* log1p(noise): a ratio within the noise, as a log */
	/* What ties go to in a band that starts at length index i: the
	 * reference where i >= reference_from (struct grid), else the
	 * baseline (band_base). */
	int reference;
	size_t reference_from;
	/* The strategies that serve a band's first length, where it starts at
	 * length index i (from[i]), and its last, where it ends at j (to[j],
	 * to[nl] for the last band, which is unbounded): a strategy serves
	 * the band when it serves both. */
	unsigned int *from, *to;
};

static int band_base(const struct fit_tables *f, size_t i)
{
	return i >= f->reference_from ? f->reference : BASELINE_STRATEGY;
}

static double worst_harm(const struct fit_tables *f, size_t i, size_t j, int c, int s)
{
	int k = 0;
	while ((size_t)2 << k <= j - i + 1)
		k++;
	double a = f->harm[((size_t)k * f->nl + i) * NC + (size_t)c].of[s];
	double b = f->harm[((size_t)k * f->nl + j + 1 - ((size_t)1 << k)) * NC + (size_t)c].of[s];
	return larger(a, b);
}

/* A cell's strategy (cost in *cost), or -1 when it has no points: among the
 * strategies valid for the band's lengths (the mask valid), measured at every point and slower
 * than the baseline by no more than the noise at any point, the lowest
 * geometric mean against the best, if it beats the baseline by more than
 * the noise; ties go to the baseline, and, in a class other than elsewhere,
 * to prefer, the elsewhere class's strategy. "The baseline" is what the
 * band's points are judged against (band_base): from reference_from, the
 * flavor's reference. A strategy that wins on the
 * whole but loses at some point of the cell is not taken: a table never makes a copy
 * slower than the baseline would, and a mean over the cell hides a loss
 * at a few of its distances (tests/fixtures/harm_somewhere.csv; measured:
 * see docs/notebook/measurements-2026-12.md#no-cell-slower-than-the-baseline). */
static int cell(const struct fit_tables *f, size_t i, size_t j, int c, unsigned int valid, int prefer, double *cost)
{
	const double log_noise = f->log_noise;
	const struct acc *a = &f->pre[i * NC + (size_t)c], *b = &f->pre[(j + 1) * NC + (size_t)c];
	size_t points = b->points - a->points;
	int best = band_base(f, i);
	*cost = 0;
	if (!points)
		return -1;
	for (int s = 0; s < NS; s++)
		if ((valid >> s & 1) && b->n[s] - a->n[s] == points &&
		    b->vs_best[s] - a->vs_best[s] < b->vs_best[best] - a->vs_best[best] &&
		    worst_harm(f, i, j, c, s) <= log_noise)
			best = s;
	if ((b->vs_base[best] - a->vs_base[best]) / (b->weight - a->weight) >= -log_noise)
		best = band_base(f, i);
	/* A class that copies like the elsewhere class needs no distance at
	 * run time: its own copy must win beyond the noise, as any copy must
	 * against band_base, which keeps its ties. */
	if (prefer >= 0 && best != band_base(f, i) && prefer != best && (valid >> prefer & 1) &&
	    b->n[prefer] - a->n[prefer] == points && worst_harm(f, i, j, c, prefer) <= log_noise &&
	    (b->vs_best[prefer] - a->vs_best[prefer]) - (b->vs_best[best] - a->vs_best[best]) <
		    log_noise * (b->weight - a->weight))
		best = prefer;
	*cost = b->vs_best[best] - a->vs_best[best];
	return best;
}

/* Whether class c of the band of length indices i..j may take strategy s,
 * the elsewhere class's copy: measured at every point there and slower
 * than the baseline by no more than the noise at any; its cost in *cost. */
static int copied_as(const struct fit_tables *f, size_t i, size_t j, int c, int s, double *cost)
{
	const struct acc *a = &f->pre[i * NC + (size_t)c], *b = &f->pre[(j + 1) * NC + (size_t)c];
	*cost = b->vs_best[s] - a->vs_best[s];
	return b->n[s] - a->n[s] == b->points - a->points && worst_harm(f, i, j, c, s) <= f->log_noise;
}

/* The band of length indices i..j, the last one when last; its cost. A
 * class without points there copies as elsewhere does. A class that
 * copies its own way costs the band's lengths a test of the distance
 * (f->test), which every call of those lengths runs in the compiled tree
 * (plan/tree.c), though few fall in the class: the band tests the
 * distance only where that buys more than it costs, and otherwise copies
 * every class as elsewhere does, where that copy serves each class
 * without harm. */
static double band(const struct grid *g, const struct fit_tables *f, size_t i, size_t j, int last, struct band *out)
{
	double total = 0, uniform = 0, cost;
	out->lo = i ? g->len[i - 1] + 1 : 0;
	out->hi = last ? BAND_UNBOUNDED : g->len[j];
	unsigned int valid = f->from[i] & f->to[last ? f->nl : j];
	int other = cell(f, i, j, CLASS_ELSEWHERE, valid, -1, &total);
	if (other < 0) /* the classes near the source took every distance measured */
		other = band_base(f, i);
	uniform = total;
	int tests = 0, alike = 1;
	for (int c = 0; c < NC; c++) {
		if (c == CLASS_ELSEWHERE) {
			out->strategy[c] = other;
			continue;
		}
		int s = cell(f, i, j, c, valid, other, &cost);
		out->strategy[c] = s < 0 ? other : s;
		total += cost;
		tests |= out->strategy[c] != other;
		if (s >= 0 && s != other)
			alike &= copied_as(f, i, j, c, other, &cost);
		uniform += cost;
	}
	if (!tests)
		return total;
	double test = f->test[j + 1] - f->test[i];
	if (alike && uniform <= total + test) {
		for (int c = 0; c < NC; c++)
			out->strategy[c] = other;
		return uniform;
	}
	return total + test;
}

/* The split of the sorted lengths into at most MAX_BANDS bands with the
 * least cost, each band past the first charged its split (split_costs), so
 * that bands come only where they buy real time. f[b * cols + j]: lengths
 * 0..j-1 in b bands, none of them the last. */
static int segment(const struct grid *g, const struct fit_tables *pre, struct derived_rule *r, double *total)
{
	size_t nl = g->nl, cols = nl + 1, start = 0;
	struct {
		double cost;
		size_t from; /* where the last of the b bands starts */
	} *f = malloc(MAX_BANDS * cols * sizeof *f);
	/* cost[j * nl + e]: the band of lengths j..e, the last one where e is
	 * nl - 1; the same whatever bands come before it, so computed once. */
	double *cost = malloc(nl * nl * sizeof *cost);
	double best = HUGE_VAL;
	struct band scratch;
	int nb = 0;
	if (!f || !cost) {
		free(f);
		free(cost);
		return -1;
	}
	for (size_t j = 0; j < nl; j++)
		for (size_t e = j; e < nl; e++)
			cost[j * nl + e] = band(g, pre, j, e, e + 1 == nl, &scratch);
	for (size_t k = 0; k < MAX_BANDS * cols; k++)
		f[k].cost = k ? HUGE_VAL : 0;
	for (int b = 0; b + 1 < MAX_BANDS; b++)
		for (size_t j = 0; j < nl; j++)
			for (size_t e = j; f[b * cols + j].cost < HUGE_VAL && e + 1 < nl; e++) {
				double c = f[b * cols + j].cost + pre->split[j] + (b == 1 ? pre->first[j] : 0) +
					   cost[j * nl + e];
				if (c < f[(b + 1) * cols + e + 1].cost)
					f[(b + 1) * cols + e + 1].cost = c, f[(b + 1) * cols + e + 1].from = j;
			}
	for (int b = 0; b < MAX_BANDS; b++)
		for (size_t j = 0; j < nl; j++) {
			if (f[b * cols + j].cost == HUGE_VAL)
				continue;
			double c = f[b * cols + j].cost + pre->split[j] + (b == 1 ? pre->first[j] : 0) +
				   cost[j * nl + nl - 1];
			if (c < best)
				best = c, nb = b, start = j;
		}
	free(cost);
	*total = best;
	r->n_bands = nb + 1;
	band(g, pre, start, nl - 1, 1, &r->bands[nb]);
	for (size_t e = start, j; nb > 0; nb--, e = j)
		band(g, pre, (j = f[nb * cols + e].from), e - 1, 0, &r->bands[nb - 1]);
	free(f);
	merge_alike(r);
	return 0;
}

/* Fills pre (the prefix sums of struct acc over the lengths, every class
 * as cls[di] gives a distance's) and harm (each length's worst loss, then
 * over runs of 2^k lengths up to levels) from g's points, each weighing
 * its length's weights (length_weights). */
static void accumulate(const struct grid *g, const int *cls, const struct length_weights *lw, size_t levels,
		       double log_noise, struct acc *pre, struct harm *harm)
{
	for (size_t k = 0; k < g->nl * NC; k++)
		for (int s = 0; s < NS; s++)
			harm[k].of[s] = -HUGE_VAL;
	for (size_t li = 0; li < g->nl; li++) {
		memcpy(&pre[(li + 1) * NC], &pre[li * NC], NC * sizeof *pre);
		double w = lw->point[li], profiled = lw->point[li] - lw->alike[li];
		for (size_t di = 0; di < g->nd; di++) {
			double base = at(g, li, di, BASELINE_STRATEGY);
			struct acc *a = &pre[(li + 1) * NC + (size_t)cls[di]];
			if (base == 0)
				continue;
			a->points++, a->weight += w;
			for (int s = 0; s < NS; s++)
				if (at(g, li, di, s) > 0) {
					/* At the weights every length shares, a regret beyond the
					 * noise weighs ten times, a loss to the baseline beyond it
					 * thirty: the fit is judged by its worst points as well as
					 * its sum, and it should do no harm. At the profile's, a
					 * regret is the time it adds, t / t_best - 1. */
					size_t k = (li * g->nd + di) * NS + (size_t)s;
					double lr = g->log_vs_best[k], lb = g->log_vs_base[k];
					a->vs_best[s] += lw->alike[li] * (lr + EXCESS_WEIGHT * larger(0, lr - log_noise) +
									  HARM_WEIGHT * larger(0, lb - log_noise));
					if (profiled)
						a->vs_best[s] += profiled * expm1(lr);
					a->vs_base[s] += w * lb;
					a->n[s]++;
					double *h = &harm[li * NC + (size_t)cls[di]].of[s];
					*h = larger(*h, lb);
				}
		}
	}
	for (size_t k = 1; k < levels; k++)
		for (size_t li = 0; li + ((size_t)1 << k) <= g->nl; li++)
			for (int c = 0; c < NC; c++)
				for (int s = 0; s < NS; s++)
					harm[(k * g->nl + li) * NC + (size_t)c].of[s] =
						larger(harm[((k - 1) * g->nl + li) * NC + (size_t)c].of[s],
						       harm[((k - 1) * g->nl + li + ((size_t)1 << (k - 1))) * NC + (size_t)c].of[s]);
}

/* The fit's tables, each of g->nl + 1 entries or more. */
struct fit_scratch {
	struct acc *pre;
	struct harm *harm;
	int *cls;
	size_t *here; /* the points of each length */
	struct length_weights w;
	double *test, *split;
	unsigned int *from, *to;
};

static void scratch_free(struct fit_scratch *s)
{
	free(s->pre);
	free(s->harm);
	free(s->cls);
	free(s->here);
	free(s->w.point);
	free(s->w.alike);
	free(s->w.calls);
	free(s->test);
	free(s->split);
	free(s->from);
	free(s->to);
}

static int scratch_alloc(const struct grid *g, size_t levels, struct fit_scratch *s)
{
	memset(s, 0, sizeof *s);
	s->pre = calloc((g->nl + 1) * NC, sizeof *s->pre);
	s->harm = malloc(levels * g->nl * NC * sizeof *s->harm);
	s->cls = malloc(g->nd * sizeof *s->cls);
	s->here = calloc(g->nl, sizeof *s->here);
	s->w.point = calloc(g->nl, sizeof *s->w.point);
	s->w.alike = calloc(g->nl, sizeof *s->w.alike);
	s->w.calls = calloc(g->nl, sizeof *s->w.calls);
	s->test = calloc(g->nl + 1, sizeof *s->test);
	s->from = calloc(g->nl, sizeof *s->from);
	s->to = calloc(g->nl + 1, sizeof *s->to);
	int all = s->pre && s->harm && s->cls && s->here && s->w.point && s->w.alike && s->w.calls && s->test;
	return all && s->from && s->to ? 0 : -1;
}

long fit_bands(const struct grid *g, struct derived_rule *r, double *cost)
{
	const double log_noise = log1p(r->noise);
	size_t points = 0, levels = 1;
	while ((size_t)1 << levels <= g->nl)
		levels++;
	struct fit_scratch s;
	if (scratch_alloc(g, levels, &s)) {
		scratch_free(&s);
		return 0;
	}
	for (size_t di = 0; di < g->nd; di++)
		s.cls[di] = rule_class(r, g->dist[di]);
	for (size_t li = 0; li < g->nl; li++) {
		for (size_t di = 0; di < g->nd; di++)
			s.here[li] += at(g, li, di, BASELINE_STRATEGY) > 0;
		points += s.here[li];
	}
	length_weights(g, r->cost.weighting, points, s.here, &s.w);
	int rc = -1;
	if ((s.split = split_costs(g, &r->cost, points, &s.w, s.test)) != NULL) {
		accumulate(g, s.cls, &s.w, levels, log_noise, s.pre, s.harm);
		struct fit_tables f = {s.pre, s.harm, g->nl, s.split, s.split + g->nl + 1, s.test, log_noise,
				       g->reference, g->reference_from, s.from, s.to};
		for (size_t li = 0; li < g->nl; li++)
			f.from[li] = serving(li ? g->len[li - 1] + 1 : 0), f.to[li] = serving(g->len[li]);
		f.to[g->nl] = serving(BAND_UNBOUNDED);
		rc = segment(g, &f, r, cost);
	}
	scratch_free(&s);
	return rc ? 0 : (long)points;
}
