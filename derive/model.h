/* The derivation's model of what a table costs the random-size workload
 * (common/workload.c, glibc's bench-memcpy-random sizes and alignments):
 * each call walked through the table's compiled tree (plan/walk.h), its
 * copy's measured time at its length and class, the tree's compares, and
 * its mispredictions, the branches' outcomes being as random as the
 * stream, so that a branch taken by a fraction p of the calls that reach
 * it mispredicts min(p, 1 - p) of them (a predictor cannot learn more of a
 * stream that long). Pure: tested on fixtures, and it prints beside the
 * probe's timing of the same table. */
#ifndef DERIVE_MODEL_H
#define DERIVE_MODEL_H

#include "derive.h"
#include "dispatch.h"

/* What a compare and a misprediction cost a call, in ticks. */
struct model_costs {
	double compare_ticks, mispredict_ticks;
};

/* The costs measured by d's trees of 1 and 8 bands that alternate their
 * copy and run one body (struct dispatch_run, tables): the sorted
 * stream's difference over the compares the 8-band tree adds, the random
 * stream's over its sorted over its mispredictions; the defaults where d
 * measured none (MODEL_*_DEFAULT). */
struct model_costs model_costs_of(const struct dispatch_run *d);

/* The defaults, for a run whose trees were not timed: a measured guest's
 * trees of 1 and 8 bands, read as model_costs_of reads them (measured:
 * see docs/notebook/measurements-2026-12.md#the-models-default-costs). */
#define MODEL_COMPARE_TICKS_DEFAULT 0.15
#define MODEL_MISPREDICT_TICKS_DEFAULT 15.3

/* The model's figures for a table, ticks a call: its copies, its
 * compares and its mispredictions, and their sum; branches and
 * mispredicts a call. */
struct model_figures {
	double body, compares, mispredicts, total;
	double branches_a_call, mispredicts_a_call;
};

/* Models r on t's measurements at costs c. classes_first: as if every
 * call ran the tests of the classes r tests before the tree (a defect the
 * tree must not have; its tests' control). Nonzero where the tree reaches
 * a copy t has no time for at a call's length. */
int rule_model(const struct timings *t, const struct derived_rule *r, const struct model_costs *c, int classes_first,
	       struct model_figures *out);

/* The conditional branches a call of n bytes at distance d runs in r's
 * compiled tree before its copy (plan_walk); -1 where the tree cannot be
 * built or reaches no copy. */
int rule_branches_at(const struct derived_rule *r, unsigned int n, unsigned int d);

/* A table of n (1, 2, 4 or 8) bands that alternate forward with a general
 * register copy, the edges splitting the workload's sizes: the probe's
 * trees that measure the branches (probe/dispatch_cost.c). */
void dispatch_alternating_table(int n, struct derived_rule *r);

#endif
