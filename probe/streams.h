/* The random-size workload in the probe (common/workload.h): both streams,
 * and two ways of timing copies on them. */
#ifndef PROBE_STREAMS_H
#define PROBE_STREAMS_H

#include "../common/workload.h"
#include "../derive/dispatch.h"

struct streams {
	struct call calls[2][WORKLOAD_CALLS]; /* random, then sorted */
	unsigned char *src, *dst;
};

/* Exits, after saying so, when memory runs out. */
struct streams *streams_new(void);
void streams_free(struct streams *s);

/* Each of n copies in turn, round after round, so that a slow spell of
 * the machine hits them alike: the minimum per copy and stream, in ticks a
 * call. */
void time_copies(struct streams *s, const copy_fn *copies, int n, struct workload_ticks *out);

/* Two copies timed in turns over PAIRED_ROUNDS rounds, b over a
 * (time_paired, common/workload.h): the median of the per-round ratio, and
 * each copy's median ticks a call in times[0] (a) and times[1] (b) where
 * times is not NULL. */
enum { PAIRED_ROUNDS = DISPATCH_PAIRED_ROUNDS };
struct workload_ticks paired_medians(struct streams *s, copy_fn a, copy_fn b, struct workload_ticks times[2]);

#endif
