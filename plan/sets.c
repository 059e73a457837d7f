/* The routine sets of a generic build (sets.h). */
#include "sets.h"

#include <stdio.h>
#include <stdlib.h>

/* The set that runs t, added when no set runs it yet. */
static int set_of(struct plan_sets *out, const struct copy_table *t, const char *entry, int vector)
{
	if (plan_copies_forward(t))
		return PLAN_SET_BASELINE;
	for (int i = 0; i < out->n_sets; i++)
		if (plan_same_table(&out->sets[i].table, t))
			return out->sets[i].id;
	struct plan_set *s = &out->sets[out->n_sets];
	s->id = PLAN_FIRST_COMPILED + out->n_sets++;
	s->table = *t;
	/* Named for the widest isa its copies use. */
	snprintf(s->name, sizeof s->name, "%s%s%s", entry, vector ? "_" : "",
		 vector ? isa_names[plan_widest_isa(t)] : "");
	return s->id;
}

int plan_sets(const struct plan_measured *measured, int n, int isa_level, struct plan_sets *out)
{
	*out = (struct plan_sets){0};
	out->sets = calloc((size_t)(n * (isa_level + 1)) + 1, sizeof *out->sets);
	out->rows = calloc((size_t)n + 1, sizeof *out->rows);
	struct copy_table *t = malloc(sizeof *t);
	if (!out->sets || !out->rows || !t) {
		free(t);
		plan_sets_free(out);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct plan_row *row = &out->rows[out->n_rows++];
		row->entry = measured[i].entry;
		for (int isa = isa_level; isa >= 0; isa--) {
			plan_at_isa(measured[i].table, isa, t);
			row->by_isa[isa] = set_of(out, t, measured[i].entry, isa_level > 0);
		}
	}
	free(t);
	return 0;
}

void plan_sets_free(struct plan_sets *s)
{
	free(s->sets);
	free(s->rows);
	*s = (struct plan_sets){0};
}
