/* The candidates and trials of probe versions 3 to 25 (derive/trials.c):
 * the table their probe kept, as their archives record the verdicts
 * (struct dispatch_run), and their archive lines. Probe version 26 and
 * later search instead (search.h). */
#ifndef DERIVE_TRIALS_H
#define DERIVE_TRIALS_H

#include "dispatch.h"

/* The table the run kept before the gate: the trials' table of the kept
 * candidate (derive_trialled) or of the shaped trial, or the classes
 * table, its note saying how it was made; 1 where it kept none, -1 with
 * the note saying why where the archive contradicts its points. */
int trials_kept(const struct timings *t, const struct dispatch_run *d, struct derived_rule *out);

/* The band trials' lines, after the dispatch lines in an archive of
 * probe version 7 or later:
 *   trials N                             0..DISPATCH_TRIALS_MAX
 *   trial LO HI WITH_RANDOM WITH_SORTED WITHOUT_RANDOM WITHOUT_SORTED merged|kept
 */
void band_trials_text(struct buf *b, const struct dispatch_run *d);
/* The count line, then trial line k; nonzero with why set when the line
 * is not that, well formed. */
int band_trials_count(const char *line, struct dispatch_run *d, char *why, size_t why_size);
int band_trial_parse(const char *line, struct band_trial *t, char *why, size_t why_size);

/* The small trial's line, after the band trials' in an archive of probe
 * version 8 or later:
 *   small_trial none
 *   small_trial WITH_RANDOM WITH_SORTED WITHOUT_RANDOM WITHOUT_SORTED BASELINE_SORTED kept|not
 */
void small_trial_text(struct buf *b, const struct dispatch_run *d);
int small_trial_parse(const char *line, struct small_trial *v, char *why, size_t why_size);

/* The shaped trial's line, after the small trial's in an
 * archive of probe version 9 or later:
 *   shaped none
 *   shaped MULTIPLE SHAPED_RANDOM SHAPED_SORTED BASELINE_RANDOM BASELINE_SORTED kept|not
 * MULTIPLE a candidate's, and only where the baseline was chosen. */
void shaped_trial_text(struct buf *b, const struct dispatch_run *d);
int shaped_trial_parse(const char *line, struct dispatch_run *d, char *why, size_t why_size);

/* The table the trials made of the candidate they start from
 * (dispatch_start): derived at dispatch_cost, with the small trial's
 * substitute where it was kept. Nonzero, with the note saying why, on
 * failure, and where the archive's small trial contradicts its points. */
int derive_trialled(const struct timings *t, const struct dispatch_run *d, struct derived_rule *out);

/* The classes table of the run d on t (struct classes_trial): the table
 * the trials made (derive_trialled), its zero and elsewhere cells copied
 * forward, adjacent bands alike merged, judged on t (rule_regret). Returns
 * 1 where no cell of it copies otherwise (the trial has nothing to try), 0
 * with out set, -1 with out's note saying why. */
int classes_trial_table(const struct timings *t, const struct dispatch_run *d, struct derived_rule *out);

/* The classes trial's line, after the shaped trial's in
 * an archive of probe version 15 or later:
 *   classes none
 *   classes TABLE_RANDOM TABLE_SORTED BASELINE_RANDOM BASELINE_SORTED kept|not
 * the figures only where the run kept no table before it. */
void classes_trial_text(struct buf *b, const struct dispatch_run *d);
int classes_trial_parse(const char *line, struct dispatch_run *d, char *why, size_t why_size);

#endif
