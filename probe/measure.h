/* Timing the generated routines: rdtsc fenced by lfence, many copies per
 * sample, the minimum over samples, the timing loop's overhead subtracted. */
#ifndef PROBE_MEASURE_H
#define PROBE_MEASURE_H

#include "table.h"

#include <signal.h>

#define MAX_PASSES 9

struct plan {
	unsigned int lengths[8];
	size_t n_lengths;
	unsigned int distances[512];
	size_t n_distances;
	unsigned int align_lengths[4];
	size_t n_align_lengths;
	int samples;       /* per point and pass; the minimum is kept */
	int max_passes;    /* give up as unstable after this many */
	int stable_passes; /* this many passes in a row must derive the same rule */
};

/* Lengths 64 B..64 KiB; every distance in 0..160 and 3936..4095, every 64
 * bytes in between; destination misalignments 0..63. */
void plan_full(struct plan *p);
/* A small plan that exercises every path in seconds, for tests. */
void plan_quick(struct plan *p);

struct point {
	enum strategy strategy;
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

/* The table of pass pass (0-based), or with pass < 0 the minimum over all
 * passes, with each point's spread across passes. */
void measurement_table(const struct measurement *m, int pass, struct table *out);

#endif
