/* Probe version 7: a band only where its compare pays on the workload;
 * version 8: small_flat in small's cells only where that pays on it;
 * version 9: where every candidate lost, both trials on the fastest, and
 * the table they shape kept where it beats every copy forward; version
 * 15: where that lost too, its stall classes alone, kept where they cost
 * the workload nothing beyond the noise. */
#ifndef PROBE_BAND_TRIALS_H
#define PROBE_BAND_TRIALS_H

#include "../derive/dispatch.h"
#include "flavor.h"

/* After the candidates, where d keeps a table or shapes one
 * (dispatch_start): band_trials_run
 * (derive/dispatch.h), each trial's two tables compiled as gen writes
 * them, each at PLACES places and timed in turns with the forward routine
 * (time_placed) on the workload, whose longest call bounds the splits
 * tried. Records each in d,
 * which the rule is derived with (dispatch_cost). Nonzero after saying
 * why. */
int try_band_splits(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise);

/* After the band trials: small_trial_run (derive/dispatch.h), the
 * table they left with and without small_flat in small's cells compiled,
 * and every copy forward as it ships, each timed in turns with the forward
 * routine (time_placed) on the workload. Records the verdict in d. Nonzero after saying
 * why. */
int try_small_flat(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise);

/* Last, where d shapes a table: shaped_trial_run (derive/dispatch.h), the
 * table both trials made compiled and timed in turns with every copy
 * forward as it ships. Records the verdict in d. Nonzero after saying
 * why. */
int try_shaped(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise);

/* Then, where d keeps no table and the flavor's every copy forward is its
 * own rep movsb (not the C library's memmove): classes_trial_run
 * (derive/dispatch.h), the classes table compiled and timed in turns with
 * every copy forward as it ships. Records the verdict in d. Nonzero after
 * saying why. */
int try_classes(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise);

#endif
