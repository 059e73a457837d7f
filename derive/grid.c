/* The measurements as a grid of points, built from a table and checked for
 * what the derivation needs. */
#include "grid.h"
#include "repair.h"

#include <math.h>
#include <stdlib.h>

int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
	return x < y ? -1 : x > y;
}

void merge_alike(struct derived_rule *r)
{
	int m = 0;
	for (int i = 0; i < r->n_bands; i++)
		if (m && memcmp(r->bands[m - 1].strategy, r->bands[i].strategy, sizeof r->bands[i].strategy) == 0)
			r->bands[m - 1].hi = r->bands[i].hi;
		else
			r->bands[m++] = r->bands[i];
	r->n_bands = m;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* What g's points are judged against (struct grid, reference and
 * reference_from): the reference where asked and timed wherever the
 * baseline was, from the first length whose baseline takes TREE_TICKS_MAX
 * over the noise or more at every distance, as far as every longer one
 * does (derive/repair.h): there a cell that copies by the reference
 * behind any tree runs as the reference does. In the user flavor the
 * baseline ships as the C library's memmove, so a long cell that tied rep
 * movsb shipped rep movsb where the C library would have run: rep movsb
 * can tie it when the probe times it and lose to it in a program minutes
 * later. Shorter cells keep the baseline, and the grid gate repairs them:
 * there the C library's memmove behind a tree takes longer than it alone
 * beyond the noise (measured: see
 * docs/notebook/comment-figures-2026-12.md#long-cells-judged-against-the-c-library). */
static void judged_against(const struct timings *t, struct grid *g, const struct derived_rule *r)
{
	g->reference = timings_reference(t);
	g->reference_from = g->nl;
	if (!r->cost.against_reference || g->reference == BASELINE_STRATEGY)
		return;
	for (size_t p = 0; p < g->nl * g->nd; p++)
		if (g->t[p * NS + BASELINE_STRATEGY] > 0 && !(g->t[p * NS + (size_t)g->reference] > 0))
			return;
	for (size_t li = g->nl; li-- > 0; g->reference_from = li)
		for (size_t di = 0; di < g->nd; di++) {
			double base = at(g, li, di, BASELINE_STRATEGY);
			if (base > 0 && base * r->noise < TREE_TICKS_MAX)
				return;
		}
}

/* g's best, log_vs_best and log_vs_base, from g->t. */
static int logs_build(struct grid *g)
{
	size_t points = g->nl * g->nd;
	g->best = calloc(points, sizeof *g->best);
	g->log_vs_best = calloc(points * NS, sizeof *g->log_vs_best);
	g->log_vs_base = calloc(points * NS, sizeof *g->log_vs_base);
	if (!g->best || !g->log_vs_best || !g->log_vs_base)
		return -1;
	for (size_t p = 0; p < points; p++) {
		const double *t = &g->t[p * NS];
		double b = 0;
		for (int s = 0; s < NS; s++)
			if (t[s] > 0 && (b == 0 || t[s] < b))
				b = t[s];
		g->best[p] = b;
		for (int s = 0; s < NS; s++)
			if (t[s] > 0) {
				g->log_vs_best[p * NS + (size_t)s] = log(t[s] / b);
				if (t[base_at(g, p / g->nd)] > 0)
					g->log_vs_base[p * NS + (size_t)s] = log(t[s] / t[base_at(g, p / g->nd)]);
			}
	}
	return 0;
}

void grid_free(struct grid *g)
{
	free(g->len);
	free(g->t);
	free(g->best);
	free(g->log_vs_best);
	free(g->log_vs_base);
}

int grid_build(const struct timings *t, struct grid *g, struct derived_rule *r)
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
	/* Of two rows for one key the first counts, as in timings_find. */
	for (size_t i = t->n; i-- > 0;) {
		const struct row *w = &t->rows[i];
		size_t li = (size_t)((unsigned int *)bsearch(&w->length, g->len, g->nl, sizeof *g->len, cmp_uint) - g->len);
		g->t[(li * g->nd + (size_t)g->di[w->distance]) * NS + (size_t)w->strategy] = w->ticks;
	}
	judged_against(t, g, r);
	if (logs_build(g))
		return -1;
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
