/* A table compiled to a branch tree: the instructions a routine runs to
 * reach the copy the table picks, in the order they are laid out. The
 * templates print them (NASM, GAS, Linux's macros); every decision of the
 * tree's shape is made here.
 *
 * The tree tests length first, unless every band copies the class
 * elsewhere alike (tree_classes.c). Each length compare splits its
 * bands where the calls of the size profile (common/size_profile.h, glibc's
 * bench-memcpy-random distribution: 56% of its calls copy 8 bytes) weigh
 * most nearly alike on both sides, so that a frequent size takes few
 * compares and a size the profile never saw, many. Only in a
 * band whose classes copy differently does it compute the distance, and
 * then it tests only the classes whose strategy differs from "elsewhere",
 * the class most distances fall in, which it reaches last with no further
 * test. make bench's dispatch line times the tree against the chosen
 * strategy called directly.
 *
 * Where a leaf's copy has pieces (pieces.h), a leaf with no distance test
 * is cut at the pieces' edges and each part jumps to its piece, past the
 * body's own compares: a table whose band 65..256 copied by avx512_medium
 * tested 256 in the tree, then 64 and 128 in the body.
 *
 * Every leaf jumps to its copy, the first band's too, but those laid out
 * after their compares (below): a short copy's lies in the patched entry,
 * right after the tree (layout.h), a longer one's in the routine. A leaf
 * past the first whose short copy the entry holds, where its compare splits
 * it off the rest, is laid out right after that compare instead, no jump
 * (falls_leaf in tree_length.c). The first leaf keeps its jump: laid out
 * after its compare (cmp; ja past it; the short copy's body), it saves
 * the shortest lengths a little and costs the longer ones the taken jump
 * past the body, and which layout wins on the workload depends on the set
 * and is mostly within what placement alone moves (measured: see
 * docs/notebook/comment-figures-2026-12.md#the-first-leaf-after-its-compare);
 * a probe would have to choose it per table, and the database record the
 * choice. Nor does the side the profile weighs more follow each compare
 * where its copy lies elsewhere, behind a jump either way (the lower
 * lengths do): so laid out, every set stays within that same floor
 * (measured: see
 * docs/notebook/comment-figures-2026-12.md#the-heavier-side-after-each-compare).
 * Where the entry holds it, it does (falls_leaf).
 */
#ifndef PLAN_TREE_H
#define PLAN_TREE_H

#include "pieces.h"
#include "table.h"

enum plan_op {
	PLAN_DISTANCE,   /* ecx = (dst - src) mod 4096 */
	PLAN_IF_CLASS,   /* to `to` when ecx is in class `class` (bound below) */
	PLAN_CMP_LENGTH, /* compare n with bound, a band's last length */
	PLAN_IF_AT_MOST, /* to `to` when n <= that bound */
	PLAN_IF_ABOVE,   /* to `to`, or to the label, when n > that bound */
	PLAN_GOTO,       /* to `to` */
	PLAN_LABEL,      /* the label: where a jump lands */
	/* The table dispatch's code tree (plan_code_tree): ecx holds a code. */
	PLAN_CMP_CODE,      /* compare ecx with bound */
	PLAN_IF_CODE,       /* to `to` when ecx = bound */
	PLAN_IF_CODE_ABOVE, /* to `to`, or to the label, when ecx > bound */
	PLAN_IF_CODE_ZERO,  /* to `to` when ecx = 0 */
	PLAN_TRAP,          /* no code reaches here */
};

struct plan_step {
	enum plan_op op;
	/* PLAN_IF_CLASS: class zero's mask (d & bound = 0), above's and near's
	 * d <= bound, below's d >= bound. zero with flags: PLAN_DISTANCE's own
	 * flags say d = 0, no compare needed. */
	int class, flags;
	unsigned int bound; /* PLAN_CMP_LENGTH: the band's last length */
	int to;             /* a strategy code; -1: the label */
	int piece;          /* with to: the piece of it jumped to (pieces.h); -1: its start */
	/* PLAN_GOTO: 1 where a routine that holds the copy (layout.h) lays
	 * out its moves right here, from the piece's first (or the body's),
	 * instead of the jump: a leaf past the first (tree_length.c, falls_leaf). */
	int falls;
	char label[32];     /* "n<lo>_<hi>" ("n<lo>_up"): the lengths it guards, after a class's
			     * subtree's prefix ("above_"); "codes_<lo>_<hi>": codes lo..hi */
};

/* The most steps a tree of PLAN_MAX_BANDS bands takes. Length first: each
 * leaf (a band, cut at most into PLAN_MAX_PIECES) its four distance tests,
 * the distance and a jump; each split a compare, a jump and a label. The
 * distance first: the distance, a compare, a jump and a label before the
 * zero test (tree_classes.c, low_gate), four tests and a jump, then for each of
 * the four classes a label and a length tree of as many leaves, each a
 * jump and its split's three steps. */
#define PLAN_MAX_STEPS (PLAN_MAX_BANDS * PLAN_MAX_PIECES * 16 + 10)

struct plan_tree {
	struct plan_step *steps;
	int n_steps;
	int used[N_COPY_STRATEGIES]; /* 1 for each strategy the tree reaches */
};

/* Appends to out a step of op that jumps to strategy `to` (-1: to no copy,
 * or to a label), marking `to` used: how tree_length.c and code_tree.c write. */
struct plan_step *plan_emit(struct plan_tree *out, enum plan_op op, int to);

/* t's tree. Nonzero when out of memory. */
int plan_tree(const struct copy_table *t, struct plan_tree *out);

/* The table dispatch's tree (code_tree.c) from a strategy code in ecx to
 * its copy, for the codes[0..n) the installed table may hold, in code
 * order. Nonzero when out of memory. */
int plan_code_tree(const int *codes, int n, struct plan_tree *out);
void plan_tree_free(struct plan_tree *tree);

/* The strategies the table dispatch tests first below its short lengths,
 * before the code tree, among codes[0..n): the short copies (those whose
 * max_n is the least bounded one, 32: made for the lengths most calls
 * copy), whatever their isa, in code order, into out (room for n); how
 * many. Each is one compare from the byte the length indexes, so that the
 * probe, which times every strategy through this dispatch, does not charge
 * one short copy the code tree's compares and another none: with small
 * alone first, small_flat paid three compares and two taken jumps more
 * than small before its body, and any short copy left behind the code
 * tree is timed for its place, not its moves (measured: see
 * docs/notebook/measurements-2026-12.md#every-short-copy-tested-first).
 * A table holds a code only where its isa runs (uc_rule_runs). */
int plan_short_first(const int *codes, int n, int *out);

#endif
