/* The random-size workload: memcpy calls with sizes and alignments drawn
 * from a published distribution of real calls, timed as one stream, and
 * the same calls sorted by size, a control where every size branch
 * predicts. The probe times the dispatch on it; the benchmark, the copies. */
#ifndef COMMON_WORKLOAD_H
#define COMMON_WORKLOAD_H

#include "timer.h"

#include <stddef.h>

struct call {
	size_t src, dst; /* offsets into the source and destination regions */
	unsigned int len;
};

/* n calls drawn from the published distribution, the same for one seed;
 * offsets lie in [0, region - 256). */
void random_calls(struct call *calls, size_t n, size_t region, unsigned int seed);

/* The calls in the order of their sizes (stable). */
void sort_calls(struct call *calls, size_t n);

/* Ticks of one stream of the n calls through fn, from src and to dst (the
 * regions the offsets are in). */
double time_calls(copy_fn fn, unsigned char *dst, const unsigned char *src, const struct call *calls, size_t n);

#endif
