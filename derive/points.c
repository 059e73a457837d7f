#include "points.h"

#include <stdlib.h>
#include <string.h>

void measurement_free(struct measurement *m)
{
	free(m->points);
	memset(m, 0, sizeof *m);
}

void measurement_table(const struct measurement *m, int passes, struct timings *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < m->n; i++) {
		const struct point *pt = &m->points[i];
		struct row r = {pt->strategy, pt->length, pt->distance, pt->misalign, 0, 0};
		/* The spread is how far the next best pass lies from the best: one
		 * pass that the machine disturbed does not make every point look
		 * noisy. */
		double lo = 1e300, next = 1e300;
		for (int k = 0; k < passes; k++) {
			if (pt->pass_min[k] < lo)
				next = lo, lo = pt->pass_min[k];
			else if (pt->pass_min[k] < next)
				next = pt->pass_min[k];
		}
		r.ticks = lo;
		r.spread = passes > 1 && lo > 0 ? (next - lo) / lo : 0;
		timings_add(out, r);
	}
}
