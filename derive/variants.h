/* Tables made of a derived one (derive/variants.c), which the search
 * checks (search.h) and older probes' trials tried (trials.h). */
#ifndef DERIVE_VARIANTS_H
#define DERIVE_VARIANTS_H

#include "derive.h"
#include "timings.h"

/* The cells of r that copy by STRATEGY_TRIAL_FROM (small) at lengths
 * STRATEGY_TRIAL_TO (small_flat) serves: how many there are, and with
 * substitute set, r with each copied by STRATEGY_TRIAL_TO. */
int small_flat_cells(struct derived_rule *r, int substitute);

/* Whether with, the table without (as derived) with the substitute in its
 * cells, loses to every copy forward beyond the noise at a point of the
 * grid where without does not, or lacks the substitute's points there: no
 * cell may, so such a table is never checked. Measures with's regret. */
int small_flat_harms(const struct timings *t, struct derived_rule *with, const struct derived_rule *without);

/* r with its zero and elsewhere cells copied as t's reference copies
 * (timings_reference: every copy forward, or in the user flavor the C
 * library's memmove), adjacent bands alike merged, judged on t
 * (rule_regret): 1 where no cell of it copies otherwise, 0 with r so
 * made, -1 with r's note saying why. */
int classes_only(const struct timings *t, struct derived_rule *r);

#endif
