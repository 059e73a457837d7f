/* A rule's columns of memmove's copies where the ranges overlap, as
 * rule_load.c loads them: overlap_below (a copy that goes up) and
 * overlap_above (down), and the longest copy each takes. */
#ifndef GEN_MODEL_RULE_OVERLAP_H
#define GEN_MODEL_RULE_OVERLAP_H

#include "model.h"
#include "rows.h"

/* Column col (12: overlap_below, 13: overlap_above) of st's row: NULL, or
 * a copy that may stand in for one going that way (plan_may_stand_in);
 * its code + 1, 0 for NULL or an error, which is said. */
int overlap_column(struct loader *l, sqlite3_stmt *st, int col, const char *row);

/* Column col (14: overlap_below_max, 15: overlap_above_max): NULL, or a
 * length where the way's copy (stand_in, code + 1) is not the C
 * library's; 0 for NULL or an error, which is said. */
unsigned int overlap_max_column(struct loader *l, sqlite3_stmt *st, int col, const char *row, int stand_in);

/* Once r's bands are loaded: its copies for an overlap are its flavor's,
 * in a flavor with a memmove, and copy from the shortest length r's copies
 * that go one way serve. */
void check_overlap_columns(struct loader *l, const struct model *m, const struct rule *r);

#endif
