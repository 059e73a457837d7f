/* The kept table on make bench's grid against every copy forward as it
 * ships, repaired where it loses (derive/dispatch.h, struct grid_gate). */
#ifndef PROBE_GRID_GATE_H
#define PROBE_GRID_GATE_H

#include "../derive/dispatch.h"
#include "flavor.h"

/* Where d keeps a table (dispatch_keeps_table): the rule derive_chosen
 * makes of it, compiled (one place: at one length and distance every
 * branch predicts), and every copy forward as it ships, timed in turns at
 * each point of the gate's lengths up to longest bytes (gate_grid_cover:
 * make bench's grid and every band's own points); where a point loses
 * beyond its effect size (gate_effect.h, from the noise and placement_sd,
 * the run's ratio_placement_sd) and Holm's procedure (gate_grid_holm),
 * its cell repaired (derive/repair.h, gate_repair_round), compiled again
 * and the points it changed timed again, up to REPAIR_ROUNDS rounds. The
 * verdict, the repaired table's, in d->gate and its repairs in
 * d->repairs, each printed. Nothing where d keeps none. Nonzero after
 * saying why. */
int try_grid_gate(const struct probe_flavor *f, const struct timings *t, struct dispatch_run *d, double noise,
		  double placement_sd,
		  size_t longest);

#endif
