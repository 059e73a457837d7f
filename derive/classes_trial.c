/* The stall classes alone (dispatch.h): the table the search checks last
 * (search.h) and the classes trial of probe versions 15 to 25 tried, and
 * that trial's archive line. */
#include "dispatch.h"

#include "../common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether class c of r holds a distance: the classes a core's copy may
 * stall in, which the trial keeps where their bounds hold any; zero and
 * elsewhere, where most calls fall, copy forward. */
static int stall_class(const struct derived_rule *r, int c)
{
	switch (c) {
	case CLASS_ABOVE: return r->above_max > 0;
	case CLASS_NEAR: return r->near_max > r->above_max;
	case CLASS_BELOW: return r->below_max > 0;
	default: return 0;
	}
}

int classes_only(const struct table *t, struct derived_rule *r)
{
	int n = 0, differs = 0, reference = table_reference(t);
	for (int i = 0; i < r->n_bands; i++) {
		struct band b = r->bands[i];
		for (int c = 0; c < N_DISTANCE_CLASSES; c++) {
			if (!stall_class(r, c))
				b.strategy[c] = reference;
			differs |= b.strategy[c] != reference;
		}
		if (n && memcmp(r->bands[n - 1].strategy, b.strategy, sizeof b.strategy) == 0)
			r->bands[n - 1].hi = b.hi;
		else
			r->bands[n++] = b;
	}
	r->n_bands = n;
	if (!differs)
		return 1;
	rule_align_dst(r);
	/* Each class keeps its bounds, so each of its points keeps the cell
	 * the derivation judged there, which lost to no copy forward beyond
	 * the noise. */
	return rule_regret(t, r) ? -1 : 0;
}

int classes_trial_table(const struct table *t, const struct dispatch_run *d, struct derived_rule *out)
{
	return derive_trialled(t, d, out) ? -1 : classes_only(t, out);
}

void classes_trial_text(struct buf *b, const struct dispatch_run *d)
{
	const struct classes_trial *v = &d->classes;
	if (!v->tried) {
		buf_printf(b, "classes none\n");
		return;
	}
	buf_printf(b, "classes %.2f %.2f %.2f %.2f %s\n", v->table.random, v->table.sorted, v->baseline.random,
		   v->baseline.sorted, v->kept ? "kept" : "not");
}

int classes_trial_parse(const char *line, struct dispatch_run *d, char *why, size_t why_size)
{
	static const char key[] = "classes ";
	struct classes_trial *v = &d->classes;
	memset(v, 0, sizeof *v);
	if (strcmp(line, "classes none") == 0)
		return 0;
	double x[4];
	const char *s = strncmp(line, key, sizeof key - 1) == 0 ? line + sizeof key - 1 : NULL;
	for (int i = 0; s && i < 4; i++)
		s = ticks_then_space(s, &x[i]);
	if (!s || (strcmp(s, "kept") != 0 && strcmp(s, "not") != 0)) {
		snprintf(why, why_size,
			 "expected 'classes none' or 'classes TABLE_RANDOM TABLE_SORTED BASELINE_RANDOM BASELINE_SORTED "
			 "kept|not', found '%.80s'",
			 line);
		return -1;
	}
	if (dispatch_keeps_table(d)) {
		snprintf(why, why_size, "a classes trial where a table was kept: only a run that keeps every copy forward "
					"tries one");
		return -1;
	}
	v->tried = 1;
	v->table = (struct workload_ticks){x[0], x[1]};
	v->baseline = (struct workload_ticks){x[2], x[3]};
	v->kept = strcmp(s, "kept") == 0;
	return 0;
}
