/* A probe run's timings: every point (strategy, length, distance), and its
 * minimum in each pass. The probe fills them; its run archive carries them
 * raw; the import makes the table the derivation reads from them. */
#ifndef DERIVE_POINTS_H
#define DERIVE_POINTS_H

#include "timings.h"

#define MAX_PASSES 9

struct point {
	int strategy;
	unsigned int length, distance, misalign;
	double pass_min[MAX_PASSES];
};

struct measurement {
	struct point *points;
	size_t n;
	int passes;
	double overhead; /* ticks per call of an empty routine, last pass */
};

void measurement_free(struct measurement *m);

/* The table of the first passes passes: each point's minimum over them, and
 * its spread: (second lowest - lowest) / lowest of its pass minima. */
void measurement_table(const struct measurement *m, int passes, struct timings *out);

#endif
