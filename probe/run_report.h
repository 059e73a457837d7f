/* What the probe prints of a flavor's run as it goes: each pass's table,
 * the points the regime check flags, and the kept rule's copies for an
 * overlap. The archive holds the figures; these are for the reader. */
#ifndef PROBE_RUN_REPORT_H
#define PROBE_RUN_REPORT_H

#include "../derive/archive.h"
#include "../derive/derive.h"
#include "flavor.h"

/* One line: what (the flavor and pass), r's class bounds, its band count,
 * and its worst and mean regret. */
void print_rule(const char *what, const struct derived_rule *r);

/* The points the passes timed faster at a longer length (derive/regime.h),
 * the lengths flagged at the most distances first. */
void print_regime(const struct timings *t);

/* The kept rule's copies for an overlap (derive/overlap.h), as the import
 * will derive them: the rule from the points that decide cells
 * (regime_deciding), the copies judged on every point t holds. Nonzero
 * after saying why. */
int print_stand_ins(const struct probe_flavor *f, const struct timings *deciding, const struct timings *t,
		    const struct run_archive *a);

#endif
