/* Tables made of a derived one (derive/variants.c), which the search
 * checks (search.h) and older probes' trials tried (trials.h). */
#ifndef DERIVE_VARIANTS_H
#define DERIVE_VARIANTS_H

#include "derive.h"
#include "timings.h"

#include <stddef.h>

/* The cells of r that copy by STRATEGY_TRIAL_FROM (small) at lengths
 * STRATEGY_TRIAL_TO (small_flat) serves: how many there are, and with
 * substitute set, r with each copied by STRATEGY_TRIAL_TO. */
int small_flat_cells(struct derived_rule *r, int substitute);

/* Whether with, the table without (as derived) with the substitute in its
 * cells, loses to every copy forward beyond the noise at a point of the
 * grid where without does not, or lacks the substitute's points there: no
 * cell may, so such a table is never checked. Measures with's regret. */
int variant_harms(const struct timings *t, struct derived_rule *with, const struct derived_rule *without);

/* r with the branch-light copies the search tries in the table it keeps
 * (search_flat): each copy that compares the length inside replaced by
 * one of the same reach that does not, small_flat in small's cells and
 * avx512_masked_wide in avx512_medium's, each in the bands that start at a
 * length it serves (one that reaches past its last split there), a pair
 * at a time in that order, each kept where the table it makes harms
 * no point that r as given did not (variant_harms); then neighbouring
 * bands alike become one. What such a copy saves is a branch that
 * mispredicts on random sizes, which no point, timed at one length,
 * shows: the check on the workload decides. Returns the pairs kept, a bit
 * each, in that order; 0 leaves r as it was. */
unsigned int branch_light(const struct timings *t, struct derived_rule *r);
#define BRANCH_LIGHT_PAIRS 2
/* The pairs of mask, as a phrase: "small_flat in small's cells", pairs
 * joined by " and ". */
void branch_light_say(unsigned int mask, char *out, size_t size);

/* r with its zero and elsewhere cells copied as t's reference copies
 * (timings_reference: every copy forward, or in the user flavor the C
 * library's memmove), adjacent bands alike merged, judged on t
 * (rule_regret): 1 where no cell of it copies otherwise, 0 with r so
 * made, -1 with r's note saying why. */
int classes_only(const struct timings *t, struct derived_rule *r);

#endif
