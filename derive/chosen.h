/* The rule a probe run kept (derive/chosen.c), as the import derives it
 * from the run's archive and the probe before its gate. */
#ifndef DERIVE_CHOSEN_H
#define DERIVE_CHOSEN_H

#include "dispatch.h"
#include "search.h"

/* Derives the rule the run kept: the table its search kept
 * (search_chosen), or an older probe's trials (trials_kept), with the
 * repairs its grid gate made; or the baseline table judged on t, where
 * none was kept or the gate refused the one that was; and for a run that
 * never timed a compiled tree, only its long cells (unchecked_keep_long).
 * Nonzero, with the note saying why, on failure. */
int derive_chosen(const struct timings *t, const struct dispatch_run *d, struct derived_rule *out);
/* The same where the run searched and search_rank ranked its tables
 * already: ranked[0..n) (the import, whose evidence shows them too; the
 * ranking is most of a derivation's time). */
int derive_chosen_ranked(const struct timings *t, const struct dispatch_run *d, const struct search_entry *ranked,
			 int n, struct derived_rule *out);

#endif
