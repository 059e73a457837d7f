/* Two copies timed in turns at one point (paired.h). */
#include "paired.h"

#include "report.h"

#include <stdlib.h>

/* Each round's times of a and b, a first in even rounds and b in odd, so
 * that neither always follows the other's traces. */
static void rounds(copy_fn a, copy_fn b, unsigned char *arena, size_t n, unsigned int d, unsigned int ticks,
		   double ta[PAIRED_POINT_ROUNDS], double tb[PAIRED_POINT_ROUNDS])
{
	for (int k = 0; k < PAIRED_POINT_ROUNDS; k++) {
		if (k % 2) {
			tb[k] = time_copy(b, arena, n, d, 1, ticks);
			ta[k] = time_copy(a, arena, n, d, 1, ticks);
		} else {
			ta[k] = time_copy(a, arena, n, d, 1, ticks);
			tb[k] = time_copy(b, arena, n, d, 1, ticks);
		}
	}
}

static double median(double *v)
{
	qsort(v, PAIRED_POINT_ROUNDS, sizeof *v, cmp_double);
	return v[PAIRED_POINT_ROUNDS / 2];
}

double paired_ratio(copy_fn a, copy_fn b, unsigned char *arena, size_t n, unsigned int d,
		    unsigned int ticks_per_sample)
{
	double ta[PAIRED_POINT_ROUNDS], tb[PAIRED_POINT_ROUNDS];
	rounds(a, b, arena, n, d, ticks_per_sample, ta, tb);
	for (int k = 0; k < PAIRED_POINT_ROUNDS; k++)
		ta[k] /= tb[k];
	return median(ta);
}

double paired_difference(copy_fn a, copy_fn b, unsigned char *arena, size_t n, unsigned int d,
			 unsigned int ticks_per_sample)
{
	double ta[PAIRED_POINT_ROUNDS], tb[PAIRED_POINT_ROUNDS];
	rounds(a, b, arena, n, d, ticks_per_sample, ta, tb);
	for (int k = 0; k < PAIRED_POINT_ROUNDS; k++)
		ta[k] -= tb[k];
	return median(ta);
}
