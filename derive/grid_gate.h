/* The grid gate's verdicts (grid_gate.c): its archive line, what a loss
 * at one of its points is, and whether a run kept a table for it to
 * check. Its timings are struct grid_gate's, in a dispatch run
 * (dispatch.h); the probe times them (probe/grid_gate.c). */
#ifndef DERIVE_GRID_GATE_H
#define DERIVE_GRID_GATE_H

#include "dispatch.h"

/* The grid gate's line (grid_gate.c), after the classes trial's (or the
 * search's) in an archive of probe version 12 or later:
 *   grid_gate none                                 no table was kept
 *   grid_gate WORST LENGTH DISTANCE passed|refused
 * WORST the largest ratio of the kept table to every copy forward, with
 * three decimals (of a point that loses, where one does), and the
 * probe's verdict (grid_gate_loses, confirmed). */
void grid_gate_text(struct buf *b, const struct dispatch_run *d);
int grid_gate_parse(const char *line, struct dispatch_run *d, char *why, size_t why_size);

/* Whether a point of the grid gate is a loss beyond the noise: its
 * median ratio of the kept table to every copy forward over 1 + noise,
 * and the table slower in GRID_GATE_SLOWER of the GRID_GATE_ROUNDS rounds
 * or more (a sign test: where the two take the same time, 12 or more of
 * 15 happens with probability 0.018). A median alone condemned cells
 * where the guest's noise was larger than the run's: on a Zen 5 guest
 * every copy forward took 336 to 402 ticks at 16384 bytes, d = 0, in
 * five timings of five samples each, one after another (the probe's gate
 * as it timed strategy libc there, 2026-12-06, a throwaway timing). */
#define GRID_GATE_SLOWER 12
int grid_gate_loses(double ratio, int slower, double noise);

/* Whether the run keeps a table before the gate: a candidate, the
 * shaped table, or the classes table. */
int dispatch_keeps_table(const struct dispatch_run *d);

#endif
