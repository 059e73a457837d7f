/* How far the probe's timing of a table (probe/compiled.h) is from the
 * code gen writes for it: the probe's prediction checked. */
#ifndef PROBE_PREDICTION_H
#define PROBE_PREDICTION_H

#include "flavor.h"

/* Where out/ has a rule for this CPU, and then for each routine set out/
 * compiles at this CPU's isa: the routines as shipped (the patched entry)
 * and as the probe compiles the same table, timed in turns on both
 * streams, and printed side by side: how far the probe's prediction of a
 * table is from the code gen writes for it. */
void check_prediction(const struct probe_flavor *f);

#endif
