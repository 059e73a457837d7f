/* The search (docs/derivation.md): one objective, the time of a table's
 * compiled tree on the random-size workload. The fit proposes tables at
 * three costs of a band, the model (derive/model.h) ranks them, and one
 * measured check times each, compiled as gen writes it, against the
 * baseline as it ships on both streams: the model cannot see a copy's own
 * branches, which each point times at one length, so the timing decides.
 * Pure: the probe runs it and times the checks; the import runs it again
 * on the archive's points and reads the checks' verdicts. */
#ifndef DERIVE_SEARCH_H
#define DERIVE_SEARCH_H

#include "dispatch.h"
#include "model.h"
#include "variants.h"

struct search_entry {
	double multiple; /* the multiple of the band cost it was fitted at */
	int classes;     /* the first entry's stall classes alone (classes_only) */
	int profile;     /* fitted with the lengths weighed by the size profile */
	struct model_figures model;
	struct derived_rule rule;
};

/* Ranks the tables the fit derives from t at each of candidate_multiples
 * of d's measured band cost by the model's time on the random-size
 * workload at d's measured costs (model_costs_of): the least first, where
 * another is within the noise of it the one of fewer bands, then the
 * higher multiple. A table that copies as an earlier one is dropped, as
 * is one that copies as the baseline everywhere. Last, the classes table
 * of the first (classes_only), where it has a cell that copies otherwise.
 * Fills out[0..*n - 1]. Nonzero, with out[0].rule's note saying why, where
 * a derivation fails. */
int search_rank(const struct timings *t, const struct dispatch_run *d, struct search_entry out[SEARCH_TABLES], int *n);

/* Entry e with its branch-light copies (variants.h, branch_light) where
 * it takes some that harm no point: the pairs taken, a bit each, with out
 * set; 0 where there is no such table. A branch-light copy's gain is a
 * misprediction inside the copy, which no point shows and the model
 * cannot see: where e is kept, this table is checked too. */
unsigned int search_flat(const struct timings *t, const struct search_entry *e, struct derived_rule *out);

/* Whether a checked table loses to the baseline beyond the noise on
 * neither stream. It need not beat it on the workload: each of its cells
 * beat the baseline beyond the noise where it differs (the fit's do no
 * harm), which is the win it keeps. */
int search_check_passes(const struct search_check *c, double noise);

/* Whether the branch-light table, which passed, beats the entry it was
 * made of on random sizes beyond the noise. */
int search_flat_wins(const struct search_check *flat, const struct search_check *plain, double noise);

/* The verdicts of d's checks of the ranked tables: each passed or lost
 * (search_check_passes); of those that passed, the first ranked within
 * the noise of the fastest on random sizes kept. The model ranks; the
 * timing decides. */
void search_keep(struct dispatch_run *d, double noise);

/* The table the search kept, as the archive's checks say (the entry at
 * the kept check's rank, its branch-light table where flat). Returns 1
 * where none was kept, 0 with out set, -1 with the note saying why (the
 * archive's checks name a table its points do not derive). */
int search_chosen(const struct timings *t, const struct dispatch_run *d, struct derived_rule *out);
/* The same from the tables search_rank ranked for t and d: ranked[0..n). */
int search_chosen_ranked(const struct timings *t, const struct dispatch_run *d, const struct search_entry *ranked,
			 int n, struct derived_rule *out);

/* The search's lines, after the dispatch lines in an archive of probe
 * version 26 or later (SEARCH_VERSION):
 *   search N                    the checks, 0..SEARCH_CHECKS_MAX
 *   check RANK plain|flat BANDS TABLE_RANDOM TABLE_SORTED BASELINE_RANDOM BASELINE_SORTED lost|passed|kept
 * one per ranked table in their order, then where one was kept and has a
 * branch-light table (search_flat), that table's, flat; at most one kept. */
void search_text(struct buf *b, const struct dispatch_run *d);
int search_count_parse(const char *line, struct dispatch_run *d, char *why, size_t why_size);
int search_check_parse(const char *line, struct search_check *c, char *why, size_t why_size);
/* After the last check line: nonzero with why set where the checks are
 * not in an order the probe writes. */
int search_checks_valid(const struct dispatch_run *d, char *why, size_t why_size);

#endif
