/* Probe version 7: a band only where its compare pays on the workload. */
#ifndef PROBE_BAND_TRIALS_H
#define PROBE_BAND_TRIALS_H

#include "../derive/dispatch.h"
#include "flavor.h"

/* After the candidates, where d keeps a table: its lowest split that the
 * workload's calls reach, tried away. The table derived again from t with
 * no band edge between the first length of the band before the split and
 * the last length of the band after it (or the workload's longest call),
 * and the table with the split, each compiled as gen writes it, timed in
 * turns (paired_medians); the range stays whole where the table with the
 * split was not faster beyond the noise on either stream
 * (band_trial_merges). Then the next split, of the table that won, until
 * none is left or DISPATCH_TRIALS_MAX were tried. Records each in d, which
 * the rule is derived with (dispatch_cost). Nonzero after saying why. */
int try_band_splits(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise);

#endif
