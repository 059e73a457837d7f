/* small_flat in small's cells (dispatch.h): the substitution, which the
 * search checks (search.h) and the small trial of probe versions 8 to 25
 * made, and that trial's archive line. */
#include "dispatch.h"

#include "../common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int small_trial_cells(struct derived_rule *r, int substitute)
{
	int cells = 0;
	for (int i = 0; i < r->n_bands; i++) {
		struct band *b = &r->bands[i];
		if (!strategy_serves(STRATEGY_TRIAL_TO, b->lo) || !strategy_serves(STRATEGY_TRIAL_TO, b->hi))
			continue;
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			if (b->strategy[c] == STRATEGY_TRIAL_FROM) {
				cells++;
				if (substitute)
					b->strategy[c] = STRATEGY_TRIAL_TO;
			}
	}
	return cells;
}

int small_trial_harms(const struct table *t, struct derived_rule *with, const struct derived_rule *without)
{
	return rule_regret(t, with) != 0 ||
	       with->worst_vs_baseline > fmax(1 + without->noise, without->worst_vs_baseline);
}

void small_trial_text(struct buf *b, const struct dispatch_run *d)
{
	const struct small_trial *v = &d->small;
	if (!v->tried) {
		buf_printf(b, "small_trial none\n");
		return;
	}
	buf_printf(b, "small_trial %.2f %.2f %.2f %.2f %.2f %s\n", v->with.random,
		   v->with.sorted, v->without.random, v->without.sorted, v->baseline_sorted, v->kept ? "kept" : "not");
}

int small_trial_parse(const char *line, struct small_trial *v, char *why, size_t why_size)
{
	static const char key[] = "small_trial";
	size_t k = sizeof key - 1;
	memset(v, 0, sizeof *v);
	if (strncmp(line, key, k) == 0 && strcmp(line + k, " none") == 0)
		return 0;
	double x[5];
	const char *s = strncmp(line, key, k) == 0 && line[k] == ' ' ? line + k + 1 : NULL;
	for (int i = 0; s && i < 5; i++)
		s = ticks_then_space(s, &x[i]);
	if (!s || (strcmp(s, "kept") != 0 && strcmp(s, "not") != 0)) {
		snprintf(why, why_size,
			 "expected 'small_trial none' or 'small_trial WITH_RANDOM WITH_SORTED WITHOUT_RANDOM "
			 "WITHOUT_SORTED BASELINE_SORTED kept|not', found '%.80s'",
			 line);
		return -1;
	}
	*v = (struct small_trial){1, {x[0], x[1]}, {x[2], x[3]}, x[4], strcmp(s, "kept") == 0};
	return 0;
}
