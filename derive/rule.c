/* What a derived rule chooses at a point, and what it costs on the
 * measurements. */
#include "grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int grid_regret(const struct grid *g, size_t points, struct derived_rule *r)
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
	r->median_regret = median_of(v, k); /* sorts v */
	r->p99_regret = k ? v[(k - 1) * 99 / 100] : 1;
	r->points = k;
	r->over_5pct = 0;
	for (size_t i = 0; i < k; i++)
		r->over_5pct += v[i] > 1.05;
	r->mean_regret = exp(r->mean_regret / (double)(k ? k : 1));
	free(v);
	return 0;
}

int rule_regret(const struct timings *t, struct derived_rule *r)
{
	struct grid *g = calloc(1, sizeof *g);
	size_t points = 0;
	int rc = -1;
	char note[sizeof r->note];
	memcpy(note, r->note, sizeof note);
	r->note[0] = '\0';
	r->worst_regret = r->median_regret = r->mean_regret = r->worst_vs_baseline = r->p99_regret = 0;
	if (g && grid_build(t, g, r) == 0) {
		for (size_t li = 0; li < g->nl; li++)
			for (size_t di = 0; di < g->nd; di++)
				points += at(g, li, di, BASELINE_STRATEGY) > 0;
		rc = grid_regret(g, points, r);
	}
	if (rc == 0)
		memcpy(r->note, note, sizeof note);
	if (g)
		grid_free(g);
	free(g);
	return rc;
}

static struct class_bounds bounds_of(const struct derived_rule *r)
{
	return (struct class_bounds){r->above_max, r->near_max, r->below_max, r->zero_mod};
}

enum distance_class rule_class(const struct derived_rule *r, unsigned int d)
{
	return plan_class(bounds_of(r), d);
}

int rule_choice(const struct derived_rule *r, unsigned int n, unsigned int d)
{
	return plan_band_choice(r->bands, r->n_bands, bounds_of(r), n, d);
}

int rule_class_live(const struct derived_rule *r, int c)
{
	return c == CLASS_ABOVE ? r->above_max != 0 : c == CLASS_NEAR ? r->near_max != 0
						    : c == CLASS_BELOW ? r->below_max != 0 : 1;
}

void rule_align_dst(struct derived_rule *r)
{
	r->align_dst = 0;
	for (int i = 0; i < r->n_bands; i++)
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			if (strategy_catalogue[r->bands[i].strategy[c]].aligns)
				r->align_dst = PROBE_ALIGN_DST;
}

void rule_table(const struct derived_rule *r, struct copy_table *out)
{
	out->classes = bounds_of(r);
	out->align_dst = r->align_dst;
	out->n_bands = r->n_bands;
	memcpy(out->bands, r->bands, sizeof r->bands);
	memcpy(out->stand_in, r->stand_in, sizeof r->stand_in);
	memcpy(out->stand_in_max, r->stand_in_max, sizeof r->stand_in_max);
}
