/* The routine sets of a generic build: the code each patched entry jumps to
 * once a rule is installed.
 *   set 0  the entries' own bodies: the baseline, every copy one forward
 *          rep movsb, with no dispatch at all; nothing is patched
 *   set 1  the table dispatch, which reads the installed table: for tables
 *          no entry holds (forced ones, the tests' own)
 *   set 2.. one measured table compiled to a branch tree (tree.h) for one
 *          isa level of the flavor, as plan_at_isa runs it there
 * A table that copies forward everywhere at an isa level takes set 0 there;
 * tables alike at two levels, or of two entries, share one set. */
#ifndef PLAN_SETS_H
#define PLAN_SETS_H

#include "table.h"

enum { PLAN_SET_BASELINE, PLAN_SET_TABLE, PLAN_FIRST_COMPILED };

/* A measured entry's table, in the order the entries are listed. */
struct plan_measured {
	const char *entry;
	const struct copy_table *table;
};

struct plan_set {
	int id;        /* PLAN_FIRST_COMPILED.. */
	char name[48]; /* the entry's name, with "_<isa>" for a flavor with vector isa levels */
	struct copy_table table;
};

/* A measured entry and the set it runs at each isa level of the flavor. */
struct plan_row {
	const char *entry;
	int by_isa[N_ISA_LEVELS];
};

struct plan_sets {
	struct plan_set *sets;
	int n_sets;
	struct plan_row *rows;
	int n_rows;
};

/* The sets and rows of measured[0..n) in a flavor whose widest isa level is
 * isa_level. Nonzero when out of memory. */
int plan_sets(const struct plan_measured *measured, int n, int isa_level, struct plan_sets *out);
void plan_sets_free(struct plan_sets *s);

#endif
