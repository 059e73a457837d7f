/* The random-size workload (random_sizes.c). */
#ifndef BENCH_RANDOM_SIZES_H
#define BENCH_RANDOM_SIZES_H

#include <stddef.h>

struct call {
	size_t src, dst; /* offsets into the source and destination regions */
	unsigned int len;
};

/* n calls drawn from the published distribution, the same for one seed;
 * offsets lie in [0, region - 256). */
void random_calls(struct call *calls, size_t n, size_t region, unsigned int seed);

#endif
