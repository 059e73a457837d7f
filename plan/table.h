/* A decision table as the routines run it: its class bounds and its length
 * bands. The one place that says which class a distance falls in, which
 * strategy a cell runs, and what a table becomes on a CPU that lacks some
 * of its strategies' instructions. The generator, the derivation, the
 * probe and the bench all ask here. */
#ifndef PLAN_TABLE_H
#define PLAN_TABLE_H

#include "../common/rule_limits.h"

/* The bounds of the distance classes (rule_limits.h says what each is). */
struct class_bounds {
	unsigned int above_max, near_max, below_max;
	int zero_mod; /* 4096 (or 0): d = 0 alone */
};

/* A table at an isa level may split each stored band where a stand-in
 * copies fewer lengths: at most two cuts a class. */
#define PLAN_MAX_BANDS (MAX_BANDS * (1 + 2 * N_DISTANCE_CLASSES))

struct copy_table {
	struct class_bounds classes;
	int align_dst; /* the head an aligning strategy copies to; 0: none */
	int n_bands;   /* bands[0].lo is 0, the last is unbounded */
	struct band bands[PLAN_MAX_BANDS];
	/* stand_in[way]: memmove's copy where the ranges overlap and a copy
	 * must go way (DIR_UP or DIR_DOWN), as the rule's measurements chose
	 * it (derive/overlap.h): its code + 1; 0 where the rule names none,
	 * so that a table zeroed names none. */
	int stand_in[2];
	/* stand_in_max[way]: the longest copy the stand-in takes; longer ones
	 * take the copy that defers to the C library's memmove, which the
	 * stand-in beat only up to there. 0: any length. */
	unsigned int stand_in_max[2];
};

/* The class of d = (dst - src) mod 4096 under b. */
enum distance_class plan_class(struct class_bounds b, unsigned int d);

/* The strategy code bands[0..n_bands) pick for length n at distance d;
 * the baseline for a length no band holds. */
int plan_band_choice(const struct band *bands, int n_bands, struct class_bounds b, unsigned int n, unsigned int d);
int plan_choice(const struct copy_table *t, unsigned int n, unsigned int d);
/* Whether a band of t holds length n. */
int plan_holds_length(const struct copy_table *t, unsigned int n);

/* t as the routines run it on a CPU whose isa level is isa: each strategy
 * replaced by its fallback until the CPU can run it (a stand-in for an
 * overlap by none: the flavor's stands in), one that aligns
 * replaced by its fallback where t has no alignment, forward where the
 * strategy cannot copy a length; bands split where that changes a class's
 * copy and merged where neighbours then copy alike. */
void plan_at_isa(const struct copy_table *t, int isa, struct copy_table *out);

/* Whether every cell of t is the baseline. */
int plan_copies_forward(const struct copy_table *t);
/* Whether a and b copy every (n, d) alike with the same class bounds. */
int plan_same_table(const struct copy_table *a, const struct copy_table *b);
/* The widest isa level t's strategies need, its cells' and memmove's
 * stand-ins' for an overlap: two tables of one entry at two isa levels
 * may differ by their stand-ins alone, and a set is named by this. */
int plan_widest_isa(const struct copy_table *t);

/* The strategy memmove runs in strategy's place where the copy must go way
 * (DIR_UP or DIR_DOWN) because the buffers overlap: strategy itself where
 * it loads everything first. Else the copy t measured for that way (t's
 * stand_in; t may be NULL). Else, in a flavor that offers a strategy that
 * defers to the C library's memmove (defer, its code, or -1), that one,
 * whichever way strategy goes: what that flavor is judged against.
 * Standing in for rep movsb where the ranges overlap, the descending copy
 * of general registers takes several times the C library's time on long
 * copies whose destination lies a little above the source, and rep movsb
 * itself longer where it lies a little below (measured: see
 * docs/notebook/comment-figures-2026-12.md#the-overlap-stand-in-that-defers-to-the-c-library).
 * Else strategy itself where it copies that way, or the first plain loop
 * of its isa that does (neither streaming nor aligning). -1 where the
 * catalogue has none. */
int plan_overlap_safe(const struct copy_table *t, int strategy, int way, int defer);

/* Whether s may stand in for a copy that must go way where the ranges
 * overlap: a plain loop that goes that way (neither streaming nor
 * aligning), or the copy that defers to the C library's memmove. */
int plan_may_stand_in(int s, int way);

#endif
