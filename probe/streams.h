/* The random-size workload in the probe (common/workload.h): both streams,
 * and how copies are timed on them. */
#ifndef PROBE_STREAMS_H
#define PROBE_STREAMS_H

#include "../common/workload.h"
#include "../derive/dispatch.h"

struct streams {
	struct call calls[2][WORKLOAD_CALLS]; /* random, then sorted: n of each */
	size_t n;
	unsigned char *src, *dst;
};

/* Exits, after saying so, when memory runs out. */
struct streams *streams_new(void);

/* --quick: streams of 4096 calls, not WORKLOAD_CALLS, from here on: every
 * path of the probe in a sixteenth of the time, which a predictor partly
 * learns (common/workload.h), so not a measurement. */
void streams_quick(void);
void streams_free(struct streams *s);

/* Each of n copies timed in turns with reference alone (time_paired),
 * one copy after another, never two of them in turns with each other:
 * two copies of one compiled tree, the same bytes in adjacent slots,
 * timed in turns run apart, one faster than it does alone, while each
 * timed in turns with rep movsb runs as the other (measured: see
 * docs/notebook/comment-figures-2026-12.md#two-copies-of-one-tree-in-turns).
 * out[i] is copy i's median per-round ratio to the reference times the
 * reference's mean time over the n pairings, in ticks a call, and
 * *reference_out (where not NULL) that time. */
void time_against(struct streams *s, copy_fn reference, const copy_fn *copies, int n, struct workload_ticks *out,
		  struct workload_ticks *reference_out);

/* The rounds of each pairing: a copy and the reference timed in turns
 * (time_paired, common/workload.h), the median of the per-round ratio. */
enum { PAIRED_ROUNDS = DISPATCH_PAIRED_ROUNDS };

#endif
