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
 * and the table slower in so many of the rounds timed there that a sign
 * test rejects a tie (grid_gate_slower_needed). A median alone condemns
 * cells where a guest's noise, as the gate times them, is larger than the
 * run's (measured: see
 * docs/notebook/comment-figures-2026-12.md#a-median-ratio-alone).
 * rounds: GRID_GATE_ROUNDS where the point was timed once, three times
 * that where its median was over the noise and it was timed twice more. */
int grid_gate_loses(double ratio, int slower, int rounds, double noise);

/* The fewest rounds of `rounds` in which the table must be the slower for
 * a loss: the least k where, were the two to take the same time, k or
 * more slower rounds happen with probability GRID_GATE_TIE_ODDS or less.
 * 12 of 15 (0.018); 30 of 45 (0.018). One timing of 15 rounds can miss
 * a steady loss of a tenth in a noisy guest, and so can the median of
 * three timings' counts; the rounds of the three together can tell
 * (measured: see
 * docs/notebook/measurements-2026-12.md#the-gates-rounds-counted-together). */
#define GRID_GATE_TIE_ODDS 0.02
int grid_gate_slower_needed(int rounds);

/* The sign test's p-value: the probability that a table taking the same
 * time as what it is timed against is the slower in `slower` or more of
 * `rounds` rounds, each a fair coin. */
double grid_gate_tie_p(int slower, int rounds);

/* The family-wise error the gate allows: the probability that a table
 * that ties every point anywhere is refused, or a tying cell repaired,
 * over all the points it judges on all its CPUs together. */
#define GATE_FAMILY_ERROR 0.05

/* Holm's step-down threshold (Holm 1979) for p[0..n), the p-values of
 * the candidate losses of a family of `family` tests (family >= n; the
 * points not candidates count, never rejected): the largest p-value
 * rejected at family-wise error alpha, -1 where none is. Sorts p. */
double holm_threshold(double *p, size_t n, size_t family, double alpha);

/* Whether the run keeps a table before the gate: a candidate, the
 * shaped table, or the classes table. */
int dispatch_keeps_table(const struct dispatch_run *d);

#endif
