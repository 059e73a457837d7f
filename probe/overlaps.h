/* memmove's copies timed where the ranges overlap (derive/overlap.h):
 * each copy that may stand in for one way, through its own routine
 * (copy_<strategy>), the C library's memmove through copy_libc. */
#ifndef PROBE_OVERLAPS_H
#define PROBE_OVERLAPS_H

#include "../derive/overlap.h"
#include "flavor.h"
#include "measure.h"

/* Times f's copies at the overlapping points (OVERLAP_LENGTHS by
 * OVERLAP_DELTAS; with a --quick plan, a few of them) in passes passes,
 * each the least of p's samples, into o; none where f has no memmove. A
 * copy whose routine does not give memmove's result at every point of a
 * way first (checked on one copy each) is not timed for that way, and the
 * probe says so: its routine is not the code memmove would run there. */
void measure_overlaps(const struct probe_flavor *f, const struct timing_plan *p, int passes,
		      struct overlap_timings *o);

#endif
