/* Probe version 3: what the dispatch costs a call under a mixed stream of
 * sizes, and the final candidate tables timed as callers run them. */
#ifndef PROBE_DISPATCH_COST_H
#define PROBE_DISPATCH_COST_H

#include "../derive/dispatch.h"
#include "flavor.h"

/* Times the random-size workload and its sorted control through tables of
 * dispatch_bands bands that alternate their copy, compiled with one body
 * for every strategy: d->tables. */
void measure_dispatch(const struct probe_flavor *f, struct dispatch_run *d);

/* Derives t's table at each of candidate_multiples of the measured band
 * cost, times each and the baseline table on both streams, each compiled
 * as gen would write it (compiled.h), chooses (dispatch_choose), and tries
 * the kept table's splits (try_band_splits), then small_flat in small's
 * cells (try_small_flat); where every candidate lost, the same on the
 * fastest, and the table so shaped against the baseline (try_shaped);
 * last, where a table is kept, the grid gate (try_grid_gate) up to longest
 * bytes.
 * Nonzero, after saying why, when a derivation fails. */
int time_candidates(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise,
		    size_t longest);

/* Where out/ has a rule for this CPU, and then for each routine set out/
 * compiles at this CPU's isa: the routines as shipped (the patched entry)
 * and as the probe compiles the same table, timed in turns on both
 * streams, and printed side by side: how far the probe's prediction of a
 * table is from the code gen writes for it. */
void check_prediction(const struct probe_flavor *f);

#endif
