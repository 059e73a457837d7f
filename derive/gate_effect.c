/* The grid gate's effect size (gate_effect.h). */
#include "gate_effect.h"

#include "grid.h"

#include "../common/strategies.h"

#include <math.h>
#include <stdlib.h>

/* The baseline's point at p's length and distance, or NULL. m's points
 * are in the probe's order: every strategy of a point one after another. */
static const struct point *baseline_beside(const struct measurement *m, size_t i)
{
	const struct point *p = &m->points[i];
	for (size_t k = i; k-- > 0 && m->points[k].length == p->length && m->points[k].distance == p->distance;)
		if (m->points[k].strategy == BASELINE_STRATEGY)
			return &m->points[k];
	for (size_t k = i + 1; k < m->n && m->points[k].length == p->length && m->points[k].distance == p->distance; k++)
		if (m->points[k].strategy == BASELINE_STRATEGY)
			return &m->points[k];
	return NULL;
}

double ratio_placement_sd(const struct measurement *m)
{
	if (m->passes < 2)
		return 0;
	double *v = malloc(m->n * sizeof *v);
	size_t nv = 0;
	for (size_t i = 0; v && i < m->n; i++) {
		const struct point *p = &m->points[i], *b = baseline_beside(m, i);
		if (p->strategy == BASELINE_STRATEGY || !b)
			continue;
		double x[MAX_PASSES], mean = 0, ss = 0;
		for (int k = 0; k < m->passes; k++)
			x[k] = log(p->pass_min[k] / b->pass_min[k]), mean += x[k] / m->passes;
		for (int k = 0; k < m->passes; k++)
			ss += (x[k] - mean) * (x[k] - mean);
		v[nv++] = sqrt(ss / (m->passes - 1));
	}
	double sd = nv ? median_of(v, nv) : 0;
	free(v);
	return isfinite(sd) ? sd : 0;
}

/* The standard normal's upper quantile: z with P(Z > z) = q, by bisection
 * on erfc. */
static double normal_upper(double q)
{
	double lo = 0, hi = 40;
	for (int k = 0; k < 200; k++) {
		double z = (lo + hi) / 2;
		if (0.5 * erfc(z / sqrt(2.0)) > q)
			lo = z;
		else
			hi = z;
	}
	return (lo + hi) / 2;
}

double gate_effect_size(double noise, double sd, size_t family, double alpha)
{
	if (!(sd > 0) || family == 0)
		return noise;
	double z = normal_upper(cbrt(alpha / (double)family));
	return fmax(noise, expm1(z * sd));
}
