/* Probe version 7: a band only where its compare pays on the workload. */
#ifndef PROBE_BAND_TRIALS_H
#define PROBE_BAND_TRIALS_H

#include "../derive/dispatch.h"
#include "flavor.h"

/* After the candidates, where d keeps a table: band_trials_run
 * (derive/dispatch.h), each trial's two tables compiled as gen writes
 * them (compile_tables) and timed in turns (paired_medians) on the
 * workload, whose longest call bounds the splits tried. Records each in d,
 * which the rule is derived with (dispatch_cost). Nonzero after saying
 * why. */
int try_band_splits(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise);

#endif
