/* The least loss the grid gate acts on: a point's ratio moves with where
 * its copies' code and buffers lie, the same for every round timed at one
 * place, so a loss must exceed what that spread makes of identical copies
 * at every one of its places, over all the points the gate judges. */
#ifndef DERIVE_GATE_EFFECT_H
#define DERIVE_GATE_EFFECT_H

#include "points.h"

#include <stddef.h>

/* The spread of a ratio of two copies from one placement to the next, as
 * the standard deviation of its log: for each point of m but the
 * baseline's, the log of its time over the baseline's at the same length
 * and distance, pass by pass (a pass times every copy of a point side by
 * side, in a fresh arena), its standard deviation over the passes; the
 * median over the points. 0 where m has fewer than two passes. */
double ratio_placement_sd(const struct measurement *m);

/* The effect size below which a loss at a point of the grid gate is a
 * tie: the noise, or, where larger, the ratio that identical copies
 * exceed at one placement with probability (alpha / family)^(1/3), their
 * log ratio normal with standard deviation sd. A point loses only where
 * every one of its three timings, each at its own placement, exceeds it,
 * so identical copies lose at one of family points with probability at
 * most alpha. */
double gate_effect_size(double noise, double sd, size_t family, double alpha);

#endif
