/* Private to derive/: the measurements as a grid of points, and the steps
 * of the derivation that read it. grid.c builds the grid, class_bounds.c
 * finds where the distance classes end, fit.c fits the bands to them
 * at the weights fit_weights.c gives, rule.c judges a rule on the grid,
 * and derive.c takes the steps in turn. */
#ifndef DERIVE_GRID_H
#define DERIVE_GRID_H

#include "derive.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define NS N_COPY_STRATEGIES
#define NC N_DISTANCE_CLASSES

/* What a band past the first costs, per point: bands come only where they
 * buy real time. */
#define BAND_PRICE 2e-4

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
	/* What a point is judged against, for harm and for ties (base_at):
	 * from length index reference_from, reference; below it the
	 * baseline. grid_build sets them (judged_against). */
	int reference;
	size_t reference_from;
	/* Computed once by grid_build, since the fit reads them for every
	 * class bound it tries (some 1700 fits in one user flavor's import):
	 * per point, the least time measured there; per point and strategy,
	 * where measured, log(t / best) and log(t / baseline). */
	double *best, *log_vs_best, *log_vs_base;
};

static inline double at(const struct grid *g, size_t li, size_t di, int s)
{
	return g->t[(li * g->nd + di) * NS + (size_t)s];
}

static inline double best_at(const struct grid *g, size_t li, size_t di)
{
	return g->best[li * g->nd + di];
}

/* What the points of length index li are judged against. */
static inline int base_at(const struct grid *g, size_t li)
{
	return li >= g->reference_from ? g->reference : BASELINE_STRATEGY;
}

/* Appends to the note; truncates rather than overflows. */
static inline void say(struct derived_rule *r, const char *fmt, ...)
{
	size_t used = strlen(r->note);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->note + used, sizeof r->note - used, fmt, ap);
	va_end(ap);
}

/* Appends r's bands as the note says them: "Lengths 0..32: small; 33..:
 * forward, above down". */
void say_bands(struct derived_rule *r);
/* Appends the bands of a rule changed after its derivation (a repair, a
 * run's short cells dropped), so that the note ends with what it is. */
void say_kept(struct derived_rule *r);

/* qsort's order of unsigned ints. */
int cmp_uint(const void *a, const void *b);
/* Neighbouring bands of r that copy alike become one. */
void merge_alike(struct derived_rule *r);

/* The median of v[0..n-1], which it sorts. */
double median_of(double *v, size_t n);

/* Fills g from t. Nonzero when t lacks what the derivation needs, with
 * r's note saying why, or when memory runs out. */
int grid_build(const struct timings *t, struct grid *g, struct derived_rule *r);
/* Frees what grid_build allocated in g (not g). */
void grid_free(struct grid *g);

/* class_bounds.c: the copy the elsewhere class makes at each length, the
 * runs of distances where it stalls, and the near class. */
int best_else(const struct grid *g, size_t li, double noise);
unsigned int stall_run(const struct grid *g, const int *other, double noise, int below, double *worst, int *who);
int near_class(const struct grid *g, const int *other, struct derived_rule *r, double *best);

/* fit_weights.c: what the fit weighs. */
/* What the fit weighs, per length index li: point[li], each point's
 * weight in its cells' costs; alike[li], the part of it that every length
 * shares alike; calls[li], the share of the size profile's calls that the
 * length stands for; and per_tick, what a tick a call on the profile
 * weighs (0 where the lengths weigh alike). length_weights fills it. */
struct length_weights {
	double *point, *alike, *calls, per_tick;
};
/* Fills w for g's points, points of them, here[li] at each length, so
 * that the weights of all points sum to points (see fit_weights.c). */
void length_weights(const struct grid *g, enum length_weighting how, size_t points, const size_t *here,
		    struct length_weights *w);
/* What a band that starts at each length index costs (split[j]), the
 * first split's cost beside (split[nl + 1 + j]), and the distance test's
 * prefix sums (test): malloc'd, NULL when memory runs out. */
double *split_costs(const struct grid *g, const struct derive_cost *cost, size_t points,
		    const struct length_weights *w, double *test);

/* Fits bands to the class bounds in r: r->bands, and the cost in *cost.
 * Returns the number of points, 0 on failure. */
long fit_bands(const struct grid *g, struct derived_rule *r, double *cost);

/* What the rule costs at every point, against the best and the baseline. */
int grid_regret(const struct grid *g, size_t points, struct derived_rule *r);

#endif
