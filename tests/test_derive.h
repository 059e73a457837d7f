/* What test_derive.c's checks share with the derivations of the recorded
 * tables in test_derive_fixtures.c. */
#ifndef TEST_DERIVE_H
#define TEST_DERIVE_H

#include "derive.h"
#include "timings.h"

enum { F = STRATEGY_FORWARD, FA = STRATEGY_FORWARD_ALIGNED, DOWN = STRATEGY_DOWN, SMALL = STRATEGY_SMALL };

extern struct derived_rule rule; /* the rule the checks look at */

/* Counts a check; prints what failed, with the rule's note the first time. */
void check(int ok, const char *fmt, ...);
/* The checks that follow are about what, not about a rule's note. */
void about(const char *what);

/* Derives the rule from tests/fixtures/CSV and checks it is well formed;
 * 0 when it could not. */
int derive(const char *csv);
/* The same, each split charged cost. */
int derive_charged(const char *csv, const struct derive_cost *cost);

/* The rule's class bounds, noise and alignment head. */
void bounds(unsigned int above_max, unsigned int below_max, double noise, int align_dst);

/* The rule's strategy at length n, distance d. */
void choose(unsigned int n, unsigned int d, int s);

/* The rule's number of bands and its worst regret at most. */
void bands(int n_bands, double max_regret);

/* The baseline: one band, forward everywhere, no class near the source. */
void baseline(void);

/* The rules derived from the recorded tables (test_derive_fixtures.c). */
void derive_fixtures(void);
/* The dispatch's cost and the candidates (test_derive_dispatch.c). */
void derive_dispatch(void);
/* The small trial (test_derive_small_trial.c). */
void derive_small_trial(void);
/* small_win.csv with every small point also measured as small_flat, at
 * fraction of small's time; 0, or -1 where it does not read. */
int table_with_flat(struct timings *t, double fraction);
/* The cells of r that copy s. */
int cells_of(const struct derived_rule *r, int s);
/* The shaped trial (test_derive_shaped.c). */
void derive_shaped_trial(void);
/* The classes trial (test_derive_classes.c). */
void derive_classes_trial(void);
/* The grid gate (test_derive_grid_gate.c). */
void derive_grid_gate(void);
/* The search (test_derive_search.c). */
void derive_search(void);
/* The fit at the size profile's weights (test_derive_profile.c). */
void derive_profile(void);
/* Harm and ties judged against the reference (test_derive_reference.c). */
void derive_reference(void);
/* Repair instead of refusal (test_derive_repair.c). */
void derive_repair(void);
/* A deferring cell's path at the grid gate (test_derive_gate_path.c). */
void derive_gate_path(void);
/* The distance tested where it pays, and the model (test_derive_model.c). */
void derive_model(void);
/* memmove's stand-ins for an overlap (test_derive_overlap.c). */
void derive_overlap(void);
/* The regime check, points timed faster at a longer length (test_derive_regime.c). */
void derive_regime(void);
/* The grid gate's false-refusal rate, simulated (test_derive_aa.c). */
void derive_aa(void);
/* The grid gate's points and Holm's procedure (test_derive_gate_points.c). */
void derive_gate_points(void);

#endif
