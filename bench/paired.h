/* Two copies at one length and distance, timed again and again in turns:
 * what each round's pair says, the median over the rounds. A minimum per
 * copy, each taken in its own lucky moment, compares two moments of a
 * guest whose clock moves under it; a pair timed back to back sees one. */
#ifndef BENCH_PAIRED_H
#define BENCH_PAIRED_H

#include "../common/timer.h"

#include <stddef.h>

/* The rounds of a pair; each copy in each is one sample (time_copy). */
enum { PAIRED_POINT_ROUNDS = 15 };

/* The median of a / b over the rounds, a and b each first in turn. */
double paired_ratio(copy_fn a, copy_fn b, unsigned char *arena, size_t n, unsigned int d,
		    unsigned int ticks_per_sample);

/* The median of a - b, in ticks a call, over the rounds. */
double paired_difference(copy_fn a, copy_fn b, unsigned char *arena, size_t n, unsigned int d,
			 unsigned int ticks_per_sample);

#endif
