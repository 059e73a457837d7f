/* What the dispatch costs a call under a mixed stream of sizes, and how
 * far the probe's timing of a table is from the code gen writes for it. */
#ifndef PROBE_DISPATCH_COST_H
#define PROBE_DISPATCH_COST_H

#include "../derive/dispatch.h"
#include "flavor.h"

/* Times the random-size workload and its sorted control through tables of
 * dispatch_bands bands that alternate their copy, compiled with one body
 * for every strategy: d->tables. */
void measure_dispatch(const struct probe_flavor *f, struct dispatch_run *d);

/* Where out/ has a rule for this CPU, and then for each routine set out/
 * compiles at this CPU's isa: the routines as shipped (the patched entry)
 * and as the probe compiles the same table, timed in turns on both
 * streams, and printed side by side: how far the probe's prediction of a
 * table is from the code gen writes for it. */
void check_prediction(const struct probe_flavor *f);

#endif
