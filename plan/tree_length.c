/* The steps of a branch tree (tree_build.h): a step emitted, a class
 * test, and the length tree of a table's runs or of one class's column,
 * which tree.c and tree_classes.c each build on. */
#include "tree_build.h"

#include "../common/size_profile.h"
#include "layout.h"
#include "pieces.h"

#include <stdio.h>
#include <stdlib.h>

/* Whether a class test of d mod zero_mod = 0, to copy as elsewhere, can
 * test d = 0 alone (the flags of the distance's own `and`): where no
 * other multiple of zero_mod lies in the range of a class tested[] after
 * it, each such d reaches elsewhere's copy untested anyway. A test of d
 * mod 32, say, is taken by more than a quarter of make bench's random-size
 * calls, their alignments drawn as glibc's bench-memcpy-random draws them,
 * in no order a predictor learns: a table so tested took far longer than
 * rep movsb, on both streams, where testing d = 0 alone tied it
 * (measured: see
 * docs/notebook/comment-figures-2026-12.md#a-zero-test-of-the-zero-distance-alone). */
int tree_zero_test_d0(const struct class_bounds *k, const int *tested)
{
	unsigned int m = k->zero_mod > 0 && k->zero_mod < 4096 ? (unsigned int)k->zero_mod : 4096;
	if (m == 4096)
		return 1;
	int above = tested[CLASS_ABOVE] && k->above_max >= m;
	int near = tested[CLASS_NEAR] && (k->above_max / m + 1) * m <= k->near_max;
	int below = tested[CLASS_BELOW] && k->below_max >= m;
	return !above && !near && !below;
}

struct builder {
	const struct copy_table *t;
	const struct leaf *leaves; /* leaves[1..]: numbered from 1 */
	struct plan_tree *out;
	const char *prefix; /* of its labels: "", or a class's subtree's ("above_") */
	int root;           /* the table's own tree, where a leaf's copy may follow its compare (falls_leaf) */
};

struct plan_step *plan_emit(struct plan_tree *out, enum plan_op op, int to)
{
	struct plan_step *s = &out->steps[out->n_steps++];
	*s = (struct plan_step){.op = op, .to = to, .piece = -1};
	if (to >= 0)
		out->used[to] = 1;
	return s;
}

/* The label of leaves lo..hi, named for the lengths it guards: "n257_768",
 * "n2097153_up" where they have no bound, after the prefix of a class's
 * subtree ("above_n257_768"). */
static void label(struct builder *b, enum plan_op op, int lo, int hi)
{
	struct plan_step *s = plan_emit(b->out, op, -1);
	unsigned int from = b->leaves[lo].lo, to = b->leaves[hi].hi;
	if (to == BAND_UNBOUNDED)
		snprintf(s->label, sizeof s->label, "%sn%u_up", b->prefix, from);
	else
		snprintf(s->label, sizeof s->label, "%sn%u_%u", b->prefix, from, to);
}

static void compare_length(struct builder *b, int leaf)
{
	struct plan_step *s = plan_emit(b->out, PLAN_CMP_LENGTH, -1);
	s->bound = b->leaves[leaf].hi;
}

/* The test of class c, which jumps to copy `to` (-1: to the label the
 * caller names); d0: class zero's of d = 0 alone (tree_zero_test_d0). */
struct plan_step *tree_class_test(struct plan_tree *out, const struct class_bounds *k, int c, int to, int d0)
{
	struct plan_step *s = plan_emit(out, PLAN_IF_CLASS, to);
	s->class = c;
	switch (c) {
	case CLASS_ZERO:
		s->bound = d0 ? 4095 : (unsigned int)(k->zero_mod ? k->zero_mod : 4096) - 1;
		s->flags = s->bound == 4095;
		break;
	case CLASS_ABOVE: s->bound = k->above_max; break;
	case CLASS_NEAR: s->bound = k->near_max; break;
	default: s->bound = 4096 - k->below_max; break;
	}
	return s;
}

/* Leaf i's distance tests, then its elsewhere class's copy. */
static void leaf_steps(struct builder *b, int i)
{
	const struct leaf *L = &b->leaves[i];
	const struct class_bounds *k = &b->t->classes;
	if (L->n_tests)
		plan_emit(b->out, PLAN_DISTANCE, -1);
	for (int j = 0; j < L->n_tests; j++) {
		struct plan_step *s = tree_class_test(b->out, k, L->test_class[j], L->test_to[j], L->zero_d0);
		s->piece = plan_piece_of(s->to, L->lo, L->hi);
	}
	plan_emit(b->out, PLAN_GOTO, L->elsewhere)->piece = L->piece;
}

/* Where leaves lo..hi split: after the leaf mid that makes the two sides'
 * calls most nearly equal, so that a frequent size takes few compares. */
static int weighted_middle(const struct leaf *leaves, int lo, int hi)
{
	unsigned long total = 0, left = 0, best_gap = (unsigned long)-1;
	int mid = lo;
	for (int i = lo; i <= hi; i++)
		total += leaves[i].weight;
	for (int i = lo; i < hi; i++) {
		left += leaves[i].weight;
		unsigned long gap = left > total - left ? left - (total - left) : (total - left) - left;
		if (gap < best_gap)
			best_gap = gap, mid = i;
	}
	return mid;
}

/* Whether leaf lo of lo..hi, the side of its compare that the size
 * profile weighs most (weighted_middle), lays out its copy's moves right
 * after that compare, no jump (plan_step.falls): in the table's own tree,
 * past its first leaf, where the leaf tests no distance and its copy is
 * one a patched entry holds (layout.h). Then the leaf takes no taken jump
 * and the lengths past it take one, where the compare's jump to the leaf
 * cost the leaf one: the more frequent side falls through. The first
 * leaf, the shortest lengths and most calls, keeps its jump, so that the
 * second takes two compares and no jump: so the C library's AVX-512
 * memmove lays out its lengths (glibc 2.36's
 * __memmove_avx512_unaligned_erms: below 64 bytes behind its first
 * compare's jump, 64..128 after its second compare), and no other layout
 * gave a table's 64..128 bytes its time: behind a third compare, or a
 * jump, two moves of 64..128 bytes took longer than the C library's.
 * Past the second leaf too: 129..256 bytes behind the third compare's
 * jump to the piece lost to the C library, and laid out after that
 * compare beat it, where the C library takes two jumps (measured: see
 * docs/notebook/comment-figures-2026-12.md#the-second-leaf-after-its-compare). */
static int falls_leaf(const struct builder *b, int lo)
{
	return b->root && lo > 1 && !b->leaves[lo].n_tests && plan_inline(b->leaves[lo].elsewhere);
}

/* Leaves lo..hi, for a length past leaves[lo - 1].hi: split where the
 * profile's calls weigh alike on both sides. */
static void search(struct builder *b, int lo, int hi)
{
	if (lo == hi) {
		leaf_steps(b, lo);
		return;
	}
	int mid = weighted_middle(b->leaves, lo, hi);
	compare_length(b, mid);
	if (lo == mid && falls_leaf(b, lo)) {
		label(b, PLAN_IF_ABOVE, mid + 1, hi);
		struct plan_step *s = plan_emit(b->out, PLAN_GOTO, b->leaves[lo].elsewhere);
		s->piece = b->leaves[lo].piece;
		s->falls = 1;
		label(b, PLAN_LABEL, mid + 1, hi);
		search(b, mid + 1, hi);
	} else if (lo == mid && b->leaves[lo].n_tests == 0) {
		plan_emit(b->out, PLAN_IF_AT_MOST, b->leaves[lo].elsewhere)->piece = b->leaves[lo].piece;
		search(b, mid + 1, hi);
	} else if (mid + 1 == hi && b->leaves[hi].n_tests == 0) {
		plan_emit(b->out, PLAN_IF_ABOVE, b->leaves[hi].elsewhere)->piece = b->leaves[hi].piece;
		search(b, lo, mid);
	} else {
		label(b, PLAN_IF_ABOVE, mid + 1, hi);
		search(b, lo, mid);
		label(b, PLAN_LABEL, mid + 1, hi);
		search(b, mid + 1, hi);
	}
}

/* The leaves of the merged runs runs[1..n] (into out[1..]): a run with no
 * distance test whose copy has pieces (pieces.h) cut at their edges, each
 * part jumping to its piece. How many. */
static int cut_at_pieces(const struct leaf *runs, int n, struct leaf *out)
{
	int k = 0;
	for (int i = 1; i <= n; i++) {
		struct leaf rest = runs[i];
		unsigned int edge;
		while (rest.n_tests == 0 && (edge = plan_piece_cut(rest.elsewhere, rest.lo, rest.hi)) != 0) {
			out[++k] = rest;
			out[k].hi = edge;
			rest.lo = edge + 1;
		}
		out[++k] = rest;
	}
	for (int i = 1; i <= k; i++)
		out[i].piece = plan_piece_of(out[i].elsewhere, out[i].lo, out[i].hi);
	return k;
}

/* The length tree of runs[1..n], each with no distance test or each with
 * its own: cut at the pieces' edges, weighed by the size profile, its
 * labels named from prefix. root: the table's own tree (not a class's
 * subtree), where a leaf's copy may follow its compare (falls_leaf).
 * Nonzero when out of memory. */
int tree_length_tree(const struct copy_table *t, const struct leaf *runs, int n, const char *prefix, int root,
		       struct plan_tree *out)
{
	struct leaf *leaves = calloc((size_t)n * PLAN_MAX_PIECES + 1, sizeof *leaves);
	if (!leaves)
		return -1;
	n = cut_at_pieces(runs, n, leaves);
	for (int i = 1; i <= n; i++)
		leaves[i].weight = size_profile_weight(leaves[i].lo, leaves[i].hi) + 1;
	struct builder b = {t, leaves, out, prefix, root};
	search(&b, 1, n);
	free(leaves);
	return 0;
}
