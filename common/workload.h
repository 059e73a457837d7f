/* The random-size workload: memcpy calls with sizes and alignments drawn
 * from a published distribution of real calls, timed as one stream, and
 * the same calls sorted by size, a control where every size branch
 * predicts. The probe times the dispatch on it; the benchmark, the copies. */
#ifndef COMMON_WORKLOAD_H
#define COMMON_WORKLOAD_H

#include "timer.h"

#include <stddef.h>

/* The stream: WORKLOAD_CALLS calls, their buffers in WORKLOAD_REGION bytes
 * (in the caches). Long enough that no branch predictor holds the sequence:
 * a stream of 4096 calls timed pass after pass is partly learnt, and what
 * is learnt depends on where the code lies: the same tree at two
 * addresses timed apart on a short stream, alike on this one (measured:
 * see docs/notebook/comment-figures-2026-12.md#the-workloads-65536-calls). */
enum { WORKLOAD_CALLS = 65536, WORKLOAD_REGION = 32768 };

struct call {
	size_t src, dst; /* offsets into the source and destination regions */
	unsigned int len;
};

/* n calls drawn from the published distribution, the same for one seed;
 * offsets lie in [0, region - 256). */
void random_calls(struct call *calls, size_t n, size_t region, unsigned int seed);

/* The longest call the distribution draws. */
unsigned int workload_longest(void);

/* The calls in the order of their sizes; equal sizes keep their order, so
 * their addresses stay as random as the stream's. */
void sort_calls(struct call *calls, size_t n);

/* Ticks of one stream of the n calls through fn, from src and to dst (the
 * regions the offsets are in). */
double time_calls(copy_fn fn, unsigned char *dst, const unsigned char *src, const struct call *calls, size_t n);

/* Two copies timed in turns on both streams, b over a. A ratio per round
 * cancels what the machine does between rounds, where each copy's least
 * over its rounds puts a copy well away from itself (measured: see
 * docs/notebook/comment-figures-2026-12.md#paired-rounds-not-each-copys-least).
 * The probe judges its tables so; the benchmark reports its ratios so. */
enum { WORKLOAD_PAIRED_ROUNDS = 61 };
struct paired {
	double ratio[2];    /* the median per-round ratio b / a: random, sorted */
	double ticks[2][2]; /* [a, b][random, sorted]: median ticks a call */
};

/* The median of v[0..n) (the upper one of an even count), v sorted in
 * place. */
double workload_median(double *v, int n);

/* a and b over rounds rounds (1..WORKLOAD_PAIRED_ROUNDS, each first in
 * turn) on streams[0] (random) and streams[1] (sorted), each of n calls. */
struct paired time_paired(copy_fn a, copy_fn b, unsigned char *dst, const unsigned char *src,
			  const struct call *const streams[2], size_t n, int rounds);

#endif
