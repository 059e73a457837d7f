/* A rule's columns of memmove's copies where the ranges overlap
 * (overlap_below, overlap_above and their _max), loaded and checked
 * (rule_overlap.h). */
#include "rule_overlap.h"

#include "../../common/util.h"
#include "../../plan/table.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Column overlap_below (way DIR_UP) or overlap_above (DIR_DOWN) at col:
 * NULL, or a copy that may stand in for one going that way
 * (plan_may_stand_in); code + 1, 0 for NULL or an error. Whether the
 * rule's flavor offers it, and for every length it must copy, is
 * check_overlap_columns's. */
int overlap_column(struct loader *l, sqlite3_stmt *st, int col, const char *row)
{
	const char *column = col == 12 ? "overlap_below" : "overlap_above";
	int way = col == 12 ? DIR_UP : DIR_DOWN;
	char *name = col_text(l, st, col, "rule", row, 1);
	int s = name ? strategy_named(name) : -1;
	if (name && s < 0) {
		char *what = xasprintf("must be NULL or a strategy: %s", STRATEGY_LIST);
		row_error(l, "rule", row, column, what);
		free(what);
	} else if (name && !plan_may_stand_in(s, way)) {
		char *what = xasprintf("%s cannot copy overlapping ranges %s: it must be a plain loop that copies %s, or "
				       "one that defers to the C library",
				       name, way == DIR_DOWN ? "down" : "up", way == DIR_DOWN ? "down" : "up");
		row_error(l, "rule", row, column, what);
		free(what);
		s = -1;
	}
	free(name);
	return s + 1;
}

/* Column overlap_below_max (col 14) or overlap_above_max (15): NULL, or a
 * length where the way's stand-in (code + 1) is a copy other than the C
 * library's, which takes the longer copies. 0 for NULL or an error. */
unsigned int overlap_max_column(struct loader *l, sqlite3_stmt *st, int col, const char *row, int stand_in)
{
	const char *column = col == 14 ? "overlap_below_max" : "overlap_above_max";
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return 0;
	int has;
	int v = col_int_in(l, st, col, "rule", row, &has, -1000000, INT_MAX);
	if (has && v <= 0)
		row_error(l, "rule", row, column, "must be NULL (any length) or a length of 1 or more");
	else if (has && (!stand_in || strategy_catalogue[stand_in - 1].defers))
		row_error(l, "rule", row, column,
			  "must be NULL: longer copies take the C library's memmove, which its stand-in already is");
	return has && v > 0 ? (unsigned int)v : 0;
}

/* A rule's stand-ins are its flavor's, in a flavor with a memmove, and
 * copy every length the rule's copies that go one way copy. */
void check_overlap_columns(struct loader *l, const struct model *m, const struct rule *r)
{
	const struct flavor *fl = NULL;
	for (size_t i = 0; i < m->n_flavors; i++)
		if (m->flavors[i].name && strcmp(m->flavors[i].name, r->flavor) == 0)
			fl = &m->flavors[i];
	unsigned int guarded = BAND_UNBOUNDED;
	for (int i = r->n_bands - 1; i >= 0; i--)
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			if (strategy_catalogue[r->bands[i].strategy[c]].direction != DIR_ANY)
				guarded = r->bands[i].lo;
	char *row = xasprintf("(uarch='%s', flavor='%s')", r->uarch, r->flavor);
	for (int way = DIR_UP; way <= DIR_DOWN; way++) {
		const char *column = way == DIR_UP ? "overlap_below" : "overlap_above";
		int s = r->stand_in[way] - 1;
		char *what = NULL;
		if (s < 0 || !fl)
			;
		else if (!fl->moves)
			what = xasprintf("must be NULL: flavor %s has no memmove", r->flavor);
		else if (fl->isa && fl->isa_level >= 0 && !strategy_offered(s, fl->isa_level, fl->moves))
			what = xasprintf("%s is not a strategy of flavor %s", strategy_catalogue[s].name, r->flavor);
		else if (guarded != BAND_UNBOUNDED && (unsigned int)strategy_catalogue[s].min_n > guarded)
			what = xasprintf("%s copies from %d bytes; the rule's copies that go one way start at %u",
					 strategy_catalogue[s].name, strategy_catalogue[s].min_n, guarded);
		if (what)
			row_error(l, "rule", row, column, what);
		free(what);
	}
	free(row);
}

