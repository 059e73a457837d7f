/* Tables as the probe times them: each compiled to the branch tree gen
 * would write for it (plan/), as machine code (plan/encode.c) in memory
 * near the probe's own, laid out as rule_patch writes a patched entry (the
 * routine's dispatch copied there, no jump on the way to it), and jumping
 * to the flavor's strategy routines; in the flavor whose entry is
 * memmove, to the copies that go one way through memmove's overlap guard
 * (memmove_guard in compiled.c), and entered there, as a program enters
 * the drop-in library's, through one jump through a pointer. A table that
 * copies forward everywhere is the entry's own baseline: the forward
 * routine, called directly, or the C library's memmove behind the same
 * jump (probe_flavor's baseline_copy). */
#ifndef PROBE_COMPILED_H
#define PROBE_COMPILED_H

#include "flavor.h"

struct compiled_tables {
	unsigned char *region;
	size_t size;
	copy_fn *entries; /* one per table */
};

/* Compiles tables[0..n) for this CPU's isa. one_body: every strategy jumps
 * to the forward routine, so that two tables differ only in their
 * branches (the band cost). Nonzero after saying why. */
int compile_tables(const struct probe_flavor *f, const struct derived_rule *tables, int n, int one_body,
		   struct compiled_tables *out);
/* Each strategy's own entry, as gen writes a table that gives it every
 * copy: the entry (memmove's overlap guard where the flavor's is memmove
 * and the strategy goes one way), then a jump to the strategy's routine;
 * entries[code], NULL for
 * a strategy the flavor lacks. Every strategy so pays the same path, the
 * one a compiled tree's leaf takes. And each piece's (plan/pieces.h):
 * the entry, then a jump to the piece; entries[N_COPY_STRATEGIES + i] for
 * piece i, NULL where the flavor lacks it. Nonzero after saying why. */
int compile_strategies(const struct probe_flavor *f, struct compiled_tables *out);
/* The entry of compile_strategies that times strategy at length n: its
 * piece's, where it has one that holds n (a compiled tree that has split
 * its lengths at the piece's edges jumps there), else its own. */
copy_fn strategy_entry(const struct compiled_tables *c, int strategy, unsigned int n);
void compiled_tables_free(struct compiled_tables *c);

/* Whether r copies forward everywhere at this CPU's isa, so that
 * compile_tables gives it the baseline's entry, not a tree. */
int compiles_to_baseline(const struct probe_flavor *f, const struct derived_rule *r);

/* What every table is timed in turns with (time_against, streams.h): the
 * flavor's forward routine, one rep movsb, which has no branch on the size
 * for a tree's predictions to disturb or to be helped by. The C library's
 * memmove, the user flavor's baseline, branches on the size: timed in turns
 * with a compiled tree it runs slower than in turns with tables that mostly
 * run the C library itself, so it is timed as one more copy, not as the
 * reference (measured: see
 * docs/notebook/comment-figures-2026-12.md#the-c-librarys-memmove-is-not-the-reference). */
copy_fn timing_reference(const struct probe_flavor *f);

#endif
