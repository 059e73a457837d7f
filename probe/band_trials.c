/* Each split of the kept table tried away (band_trials.h). */
#include "band_trials.h"

#include "compiled.h"
#include "streams.h"

#include <stdio.h>
#include <stdlib.h>

/* The lowest band past the first whose first length the workload reaches
 * and no trial has split at; -1 where none. */
static int untried_split(const struct derived_rule *r, const struct dispatch_run *d, unsigned int longest)
{
	for (int k = 1; k < r->n_bands && r->bands[k].lo <= longest; k++) {
		int tried = 0;
		for (int i = 0; i < d->n_trials; i++)
			tried |= d->trials[i].range.lo < r->bands[k].lo && r->bands[k].lo <= d->trials[i].range.hi;
		if (!tried)
			return k;
	}
	return -1;
}

/* The two tables compiled and timed in turns: with (rules[0]) and without
 * (rules[1]) the split. */
static int time_pair(const struct probe_flavor *f, struct streams *s, const struct derived_rule rules[2],
		     struct band_trial *trial)
{
	struct compiled_tables c;
	struct workload_ticks times[2];
	/* As time_tables does: an aligning strategy aligns as the rule says. */
	f->force_strategy(BASELINE_STRATEGY);
	if (compile_tables(f, rules, 2, 0, &c))
		return -1;
	paired_medians(s, c.entries[0], c.entries[1], times);
	compiled_tables_free(&c);
	trial->with = times[0], trial->without = times[1];
	return 0;
}

int try_band_splits(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise)
{
	d->n_trials = 0;
	if (d->chosen == CHOSE_BASELINE)
		return 0;
	const unsigned int longest = workload_longest();
	struct derived_rule *rules = malloc(2 * sizeof *rules);
	struct streams *s = streams_new();
	struct derive_cost cost = dispatch_cost(d);
	int rc = -1, k;
	if (!rules || derive_rule(t, &cost, &rules[0])) {
		fprintf(stderr, "probe: %s\n", rules ? rules[0].note : "out of memory");
		goto out;
	}
	while (d->n_trials < DISPATCH_TRIALS_MAX && (k = untried_split(&rules[0], d, longest)) > 0) {
		const struct band *before = &rules[0].bands[k - 1], *after = &rules[0].bands[k];
		struct band_trial *trial = &d->trials[d->n_trials++];
		trial->range = (struct length_range){before->lo, after->hi < longest ? after->hi : longest};
		struct derive_cost whole = cost;
		whole.unsplit[whole.n_unsplit++] = trial->range;
		if (derive_rule(t, &whole, &rules[1])) {
			fprintf(stderr, "probe: %s\n", rules[1].note);
			goto out;
		}
		if (time_pair(f, s, rules, trial))
			goto out;
		trial->merged = band_trial_merges(trial, noise);
		printf("  band trial: the split at %u, %d bands against %d with %u..%u whole: %.2f against %.2f ticks a "
		       "call on random sizes, %.2f against %.2f sorted: %s\n",
		       after->lo, rules[0].n_bands, rules[1].n_bands, trial->range.lo, trial->range.hi,
		       trial->with.random, trial->without.random, trial->with.sorted, trial->without.sorted,
		       trial->merged ? "kept whole" : "the split kept");
		if (trial->merged)
			cost = whole, rules[0] = rules[1];
	}
	rc = 0;
out:
	streams_free(s);
	free(rules);
	return rc;
}
