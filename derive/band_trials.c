/* The band trials (dispatch.h): the loop that tries each split of the kept
 * table, the rule that decides one, and their archive lines. */
#include "dispatch.h"

#include "../common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int band_trial_merges(const struct band_trial *t, double noise)
{
	return !(t->with.random * (1 + noise) < t->without.random);
}

/* The lowest band past the first whose first length is longest or less
 * and that no trial has covered; -1 where none. */
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

int band_trials_run(const struct table *t, struct dispatch_run *d, double noise, unsigned int longest,
		    band_trial_timer *time, void *ctx)
{
	d->n_trials = 0;
	if (dispatch_start(d) == CHOSE_BASELINE)
		return 0;
	struct derived_rule *rules = malloc(2 * sizeof *rules);
	struct derive_cost cost = dispatch_cost(d);
	int rc = -1, k;
	if (!rules || derive_rule(t, &cost, &rules[0])) {
		fprintf(stderr, "band trials: %s\n", rules ? rules[0].note : "out of memory");
		goto out;
	}
	while (d->n_trials < DISPATCH_TRIALS_MAX && (k = untried_split(&rules[0], d, longest)) > 0) {
		const struct band *before = &rules[0].bands[k - 1], *after = &rules[0].bands[k];
		struct band_trial *trial = &d->trials[d->n_trials++];
		trial->range = (struct length_range){before->lo, after->hi < longest ? after->hi : longest};
		struct derive_cost whole = cost;
		whole.unsplit[whole.n_unsplit++] = trial->range;
		if (derive_rule(t, &whole, &rules[1])) {
			fprintf(stderr, "band trials: %s\n", rules[1].note);
			goto out;
		}
		if (time(ctx, rules, trial))
			goto out;
		trial->merged = band_trial_merges(trial, noise);
		if (trial->merged)
			cost = whole, rules[0] = rules[1];
	}
	rc = 0;
out:
	free(rules);
	return rc;
}

void band_trials_text(struct buf *b, const struct dispatch_run *d)
{
	buf_printf(b, "trials %d\n", d->n_trials);
	for (int i = 0; i < d->n_trials; i++) {
		const struct band_trial *t = &d->trials[i];
		buf_printf(b, "trial %u %u %.2f %.2f %.2f %.2f %s\n", t->range.lo, t->range.hi, t->with.random,
			   t->with.sorted, t->without.random, t->without.sorted, t->merged ? "merged" : "kept");
	}
}

int band_trials_count(const char *line, struct dispatch_run *d, char *why, size_t why_size)
{
	char *end;
	if (strncmp(line, "trials ", 7) == 0) {
		long n = strtol(line + 7, &end, 10);
		if (end != line + 7 && !*end && n >= 0 && n <= DISPATCH_TRIALS_MAX) {
			d->n_trials = (int)n;
			return 0;
		}
	}
	snprintf(why, why_size, "expected 'trials N' with N in 0..%d, found '%.60s'", DISPATCH_TRIALS_MAX, line);
	return -1;
}

const char *ticks_then_space(const char *s, double *v)
{
	char *end;
	*v = strtod(s, &end);
	if (end == s || *end != ' ' || !isfinite(*v) || *v <= 0 || *v > 1e9)
		return NULL;
	return end + 1;
}

int band_trial_parse(const char *line, struct band_trial *t, char *why, size_t why_size)
{
	unsigned int lo, hi;
	int used = 0;
	const char *s = NULL;
	if (!strchr(line, '-') && sscanf(line, "trial %u %u %n", &lo, &hi, &used) == 2 && used > 0 && lo < hi)
		s = line + used;
	s = s ? ticks_then_space(s, &t->with.random) : NULL;
	s = s ? ticks_then_space(s, &t->with.sorted) : NULL;
	s = s ? ticks_then_space(s, &t->without.random) : NULL;
	s = s ? ticks_then_space(s, &t->without.sorted) : NULL;
	if (!s || (strcmp(s, "merged") != 0 && strcmp(s, "kept") != 0)) {
		snprintf(why, why_size,
			 "expected 'trial LO HI WITH_RANDOM WITH_SORTED WITHOUT_RANDOM WITHOUT_SORTED merged|kept' (LO < HI), "
			 "found '%.80s'",
			 line);
		return -1;
	}
	t->range = (struct length_range){lo, hi};
	t->merged = strcmp(s, "merged") == 0;
	return 0;
}
