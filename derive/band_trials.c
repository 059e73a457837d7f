/* The band trials of probe versions 7 to 25 (dispatch.h): their archive
 * lines. */
#include "dispatch.h"

#include "../common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
