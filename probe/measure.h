/* Timing the generated routines: rdtsc fenced by lfence, many copies per
 * sample in rotating lanes (common/timer.h), the minimum over samples. A
 * time is a call's whole cost; an empty call's is measured alongside, for
 * the record. */
#ifndef PROBE_MEASURE_H
#define PROBE_MEASURE_H

#include "../derive/points.h"
#include "flavor.h"

#include <signal.h>

struct timing_plan {
	unsigned int lengths[128];
	size_t n_lengths;
	/* Every distance, fine near both ends of the circle, for the lengths
	 * that locate the class bounds; a thinner set for the others. */
	unsigned int fine[512], thin[128];
	size_t n_fine, n_thin;
	unsigned int fine_lengths[32];
	size_t n_fine_lengths;
	/* Lengths of sparse_from or more (0: none) are timed at these distances
	 * only: each point costs milliseconds. */
	unsigned int sparse[32];
	size_t n_sparse;
	unsigned int sparse_from;
	/* A strategy with streaming stores is timed from this length: below
	 * it a copy fits the caches that such stores bypass. */
	unsigned int streaming_from;
	unsigned int ticks_per_sample; /* copies per sample fill about this many ticks */
	int samples;                   /* per point and pass; the minimum is kept */
	int max_passes;                /* give up as unstable after this many */
};

/* Every n in 1..64, then steps to 8 MiB; every distance in 0..160 and
 * 3936..4095 and a coarse middle at the lengths that place the class
 * bounds, a thinner set at the others, the benchmark's distances past
 * 1 MiB. */
void timing_plan_full(struct timing_plan *p);
/* A small plan that exercises every path in seconds, for tests. */
void timing_plan_quick(struct timing_plan *p);

/* 1 when the probe times strategy s of flavor f: the flavor exports its
 * routine and this CPU and its OS enable the instructions it needs. */
int measured_strategy(const struct probe_flavor *f, int s);

/* The points of the plan, every strategy timed (measured_strategy) of each
 * side by side. */
void measurement_init(struct measurement *m, const struct timing_plan *p, const struct probe_flavor *f);

typedef void (*progress_fn)(int pass, size_t done, size_t total, const struct point *now);

/* Times every point once more. Nonzero when *stop became set. */
int measure_pass(struct measurement *m, const struct timing_plan *p, const struct probe_flavor *f,
		 volatile sig_atomic_t *stop, progress_fn progress);

#endif
