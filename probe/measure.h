/* Timing the generated routines: rdtsc fenced by lfence, many copies per
 * sample in rotating lanes (timer.h), the minimum over samples. A time is a
 * call's whole cost; an empty call's is measured alongside, for the record. */
#ifndef PROBE_MEASURE_H
#define PROBE_MEASURE_H

#include "table.h"

#include <signal.h>

#define MAX_PASSES 9

struct plan {
	unsigned int lengths[128];
	size_t n_lengths;
	/* Every distance, fine near both ends of the circle, for the lengths
	 * that locate the class bounds; a thinner set for the others. */
	unsigned int fine[512], thin[128];
	size_t n_fine, n_thin;
	unsigned int fine_lengths[32];
	size_t n_fine_lengths;
	unsigned int ticks_per_sample; /* copies per sample fill about this many ticks */
	int samples;                   /* per point and pass; the minimum is kept */
	int max_passes;                /* give up as unstable after this many */
};

/* Every n in 1..64, then steps to 1 MiB; every distance in 0..160 and
 * 3936..4095 and a coarse middle at the lengths that place the class
 * bounds, a thinner set at the others. */
void plan_full(struct plan *p);
/* A small plan that exercises every path in seconds, for tests. */
void plan_quick(struct plan *p);

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

void measurement_init(struct measurement *m, const struct plan *p);
void measurement_free(struct measurement *m);

typedef void (*progress_fn)(int pass, size_t done, size_t total, const struct point *now);

/* Times every point once more. Nonzero when *stop became set. */
int measure_pass(struct measurement *m, const struct plan *p, volatile sig_atomic_t *stop, progress_fn progress);

/* The table of the first passes passes: each point's minimum over them, and
 * its spread: (second lowest - lowest) / lowest of its pass minima. */
void measurement_table(const struct measurement *m, int passes, struct table *out);

#endif
