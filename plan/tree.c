/* A table compiled to a branch tree (tree.h). */
#include "tree.h"

#include "../common/size_profile.h"
#include "layout.h"
#include "pieces.h"

#include <stdio.h>
#include <stdlib.h>

/* The distance classes a tree tests, in the table's own order; elsewhere is
 * what is left. */
static const int tested_classes[] = {CLASS_ZERO, CLASS_ABOVE, CLASS_NEAR, CLASS_BELOW};
#define N_TESTED 4

/* A run of bands that the tree treats as one: the same tests, the same
 * copy elsewhere. */
struct leaf {
	unsigned int lo, hi;
	unsigned int weight; /* calls per 1024 of the size profile, plus one */
	int n_tests;
	int test_class[N_TESTED], test_to[N_TESTED];
	int elsewhere;
	int piece; /* elsewhere's piece that holds lo..hi (pieces.h), or -1 */
	int zero_d0; /* its zero test is of d = 0 alone (zero_test_d0) */
};

/* Whether a class holds any distance: one whose bound is 0 is never
 * tested, whatever its column says. */
static int live(const struct copy_table *t, int class)
{
	switch (class) {
	case CLASS_ABOVE: return t->classes.above_max > 0;
	case CLASS_NEAR: return t->classes.near_max > 0;
	case CLASS_BELOW: return t->classes.below_max > 0;
	default: return 1;
	}
}

/* Whether a class test of d mod zero_mod = 0, to copy as elsewhere, can
 * test d = 0 alone (the flags of the distance's own `and`): where no
 * other multiple of zero_mod lies in the range of a class tested[] after
 * it, each such d reaches elsewhere's copy untested anyway. A test of d
 * mod 32, say, is taken by more than a quarter of make bench's random-size
 * calls, their alignments drawn as glibc's bench-memcpy-random draws them,
 * in no order a predictor learns: zen4's kernel table that copied forward
 * at zero and elsewhere so, with above 1..31 copied small and down, took
 * 20.3 ticks a call against rep movsb's 12.2, 17.4 against 12.1 sorted
 * (make bench on the Zen 4 guest, the table forged into zen4's rule);
 * testing d = 0 alone, 12.0 against 11.9 on both streams. */
static int zero_test_d0(const struct class_bounds *k, const int *tested)
{
	unsigned int m = k->zero_mod > 0 && k->zero_mod < 4096 ? (unsigned int)k->zero_mod : 4096;
	if (m == 4096)
		return 1;
	int above = tested[CLASS_ABOVE] && k->above_max >= m;
	int near = tested[CLASS_NEAR] && (k->above_max / m + 1) * m <= k->near_max;
	int below = tested[CLASS_BELOW] && k->below_max >= m;
	return !above && !near && !below;
}

/* The distance tests one band needs, in test order. */
static void band_tests(const struct copy_table *t, const struct band *b, struct leaf *leaf)
{
	int tested[N_DISTANCE_CLASSES] = {0}, any = 0;
	int elsewhere = b->strategy[CLASS_ELSEWHERE];
	for (int i = 0; i < N_TESTED; i++) {
		int c = tested_classes[i];
		tested[c] = live(t, c) && b->strategy[c] != elsewhere;
		any |= tested[c];
	}
	leaf->n_tests = 0;
	leaf->elsewhere = elsewhere;
	if (!any)
		return;
	/* The near test compares d <= near_max, which every d of the above
	 * class passes too: testing near means testing above first. */
	if (tested[CLASS_NEAR] && live(t, CLASS_ABOVE))
		tested[CLASS_ABOVE] = 1;
	/* Class zero comes first, as in the table's own order: the above test
	 * compares d <= above_max, which d = 0 passes, and with zero_mod below
	 * 4096 a multiple of it may lie in the above, near or below range. */
	leaf->zero_d0 = b->strategy[CLASS_ZERO] == elsewhere && zero_test_d0(&t->classes, tested);
	tested[CLASS_ZERO] = 1;
	for (int i = 0; i < N_TESTED; i++)
		if (tested[tested_classes[i]]) {
			leaf->test_class[leaf->n_tests] = tested_classes[i];
			leaf->test_to[leaf->n_tests++] = b->strategy[tested_classes[i]];
		}
}

static int same_leaf(const struct leaf *a, const struct leaf *b)
{
	if (a->elsewhere != b->elsewhere || a->n_tests != b->n_tests || a->zero_d0 != b->zero_d0)
		return 0;
	for (int i = 0; i < a->n_tests; i++)
		if (a->test_class[i] != b->test_class[i] || a->test_to[i] != b->test_to[i])
			return 0;
	return 1;
}

struct builder {
	const struct copy_table *t;
	const struct leaf *leaves; /* leaves[1..]: numbered from 1, as the labels are */
	struct plan_tree *out;
	const char *prefix; /* of its labels: "t", or a class's subtree's */
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

static void label(struct builder *b, enum plan_op op, int lo, int hi)
{
	struct plan_step *s = plan_emit(b->out, op, -1);
	snprintf(s->label, sizeof s->label, "%s%d_%d", b->prefix, lo, hi);
}

static void compare_length(struct builder *b, int leaf)
{
	struct plan_step *s = plan_emit(b->out, PLAN_CMP_LENGTH, -1);
	s->bound = b->leaves[leaf].hi;
}

/* The test of class c, which jumps to copy `to` (-1: to the label the
 * caller names); d0: class zero's of d = 0 alone (zero_test_d0). */
static struct plan_step *class_test(struct plan_tree *out, const struct class_bounds *k, int c, int to, int d0)
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
		struct plan_step *s = class_test(b->out, k, L->test_class[j], L->test_to[j], L->zero_d0);
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
 * gave a table's 64..128 bytes its time: on a Zen 4 guest, two moves of
 * 64..128 bytes behind two compares took 5.7-5.8 ticks a call, as the C
 * library's; behind a third compare, or a jump, 6.4-7.2 (a throwaway
 * timing of the layouts, not a recorded run). Past the second leaf too:
 * zen4's 129..256 bytes, behind the third compare's jump to the piece,
 * took 1.06-1.08x the C library's time at 256 bytes, d = 0, 32 and 64
 * (make bench); laid out after that compare, 0.83-0.94x (make bench, the
 * next run), where the C library takes two jumps. */
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
static int length_tree(const struct copy_table *t, const struct leaf *runs, int n, const char *prefix, int root,
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

/* Whether the tree tests the distance before the length: where every band
 * copies the class elsewhere alike, by a copy with no pieces, and some
 * band tests a class. Then the length matters only in the classes whose
 * copy changes with it, and a call elsewhere, where most distances fall,
 * runs the class tests and no length compare. zen4's kernel table that
 * copies every class forward but above (d = 1..31, where rep movsb took
 * 55-127 ticks at 64 bytes against 11 at d = 0,
 * evidence/zen4-2026-12-04-641111), length first (cmp 7, then the
 * distance), took 1.032x the time of one rep movsb on make bench's random
 * sizes, distance first 1.013-1.014x (the table forged into zen4's rule,
 * two runs each). */
static int distance_first(const struct leaf *runs, int n)
{
	int tests = 0;
	for (int i = 1; i <= n; i++) {
		if (runs[i].elsewhere != runs[1].elsewhere)
			return 0;
		tests |= runs[i].n_tests > 0;
	}
	return n > 1 && tests && plan_piece_cut(runs[1].elsewhere, runs[1].lo, runs[n].hi) == 0;
}

/* The class whose test leads a distance-first tree to its class tests,
 * or -1 for none: where the zero class copies as elsewhere does but its
 * test must be of d mod zero_mod, not d = 0 alone (zero_test_d0: a
 * multiple of zero_mod lies in the above or near class), and no below
 * class is tested. Then the zero test matters only for the distances of
 * those classes, d <= the last one's bound, and the tree tests that
 * first: a call elsewhere runs one compare that it seldom takes, not the
 * zero test, which a quarter or more of the workload's calls take in no
 * order a predictor learns (their addresses are multiples of 16). On a
 * Zen 4 guest the probe's classes trial, zero test first (d mod 32), took
 * 17.79 ticks a call on random sizes against rep movsb's 12.17, and 17.76
 * against 12.16 sorted (evidence/zen4-2026-12-05-6d7d96). */
static int low_gate(const struct class_bounds *k, const int *tested, int zero_as_elsewhere)
{
	if (!zero_as_elsewhere || tested[CLASS_BELOW] || zero_test_d0(k, tested))
		return -1;
	return tested[CLASS_NEAR] ? CLASS_NEAR : CLASS_ABOVE;
}

static const char *const class_label[N_DISTANCE_CLASSES] = {
	[CLASS_ZERO] = "zero_", [CLASS_ABOVE] = "above_", [CLASS_NEAR] = "near_", [CLASS_BELOW] = "below_"};

/* The distance first (distance_first): each class that some band tests, in
 * test order, jumps to its copy where every band copies it alike, else to
 * its own length tree; elsewhere's copy is reached last with no further
 * test. Nonzero when out of memory. */
static int classes_first(const struct copy_table *t, const struct leaf *runs, int n, struct plan_tree *out)
{
	int tested[N_DISTANCE_CLASSES] = {0}, own_tree[N_DISTANCE_CLASSES] = {0};
	for (int i = 1; i <= n; i++)
		for (int j = 0; j < runs[i].n_tests; j++)
			tested[runs[i].test_class[j]] = 1;
	for (int c = 0; c < N_DISTANCE_CLASSES; c++)
		for (int k = 1; k < t->n_bands && tested[c]; k++)
			own_tree[c] |= t->bands[k].strategy[c] != t->bands[0].strategy[c];
	int zero_as_elsewhere = tested[CLASS_ZERO] && !own_tree[CLASS_ZERO] &&
				t->bands[0].strategy[CLASS_ZERO] == runs[1].elsewhere;
	plan_emit(out, PLAN_DISTANCE, -1);
	int gate = low_gate(&t->classes, tested, zero_as_elsewhere);
	if (gate >= 0) {
		snprintf(class_test(out, &t->classes, gate, -1, 0)->label, sizeof out->steps->label, "low_classes");
		plan_emit(out, PLAN_GOTO, runs[1].elsewhere);
		snprintf(plan_emit(out, PLAN_LABEL, -1)->label, sizeof out->steps->label, "low_classes");
	}
	for (int i = 0; i < N_TESTED; i++) {
		int c = tested_classes[i];
		if (!tested[c])
			continue;
		int d0 = c == CLASS_ZERO && zero_as_elsewhere && zero_test_d0(&t->classes, tested);
		struct plan_step *s = class_test(out, &t->classes, c, own_tree[c] ? -1 : t->bands[0].strategy[c], d0);
		if (own_tree[c])
			snprintf(s->label, sizeof s->label, "%sclass", class_label[c]);
		else
			s->piece = plan_piece_of(s->to, runs[1].lo, runs[n].hi);
	}
	plan_emit(out, PLAN_GOTO, runs[1].elsewhere);
	struct leaf *column = calloc((size_t)t->n_bands + 1, sizeof *column);
	if (!column)
		return -1;
	int rc = 0;
	for (int i = 0; i < N_TESTED && rc == 0; i++) {
		int c = tested_classes[i], m = 0;
		if (!own_tree[c])
			continue;
		snprintf(plan_emit(out, PLAN_LABEL, -1)->label, sizeof out->steps->label, "%sclass", class_label[c]);
		for (int k = 0; k < t->n_bands; k++) {
			const struct band *b = &t->bands[k];
			if (m && column[m].elsewhere == b->strategy[c])
				column[m].hi = b->hi;
			else
				column[++m] = (struct leaf){.lo = b->lo, .hi = b->hi, .elsewhere = b->strategy[c]};
		}
		char prefix[16];
		snprintf(prefix, sizeof prefix, "%st", class_label[c]);
		rc = length_tree(t, column, m, prefix, 0, out);
	}
	free(column);
	return rc;
}

int plan_tree(const struct copy_table *t, struct plan_tree *out)
{
	*out = (struct plan_tree){0};
	struct leaf *runs = calloc((size_t)t->n_bands + 1, sizeof *runs);
	out->steps = calloc(PLAN_MAX_STEPS, sizeof *out->steps);
	if (!runs || !out->steps) {
		free(runs);
		plan_tree_free(out);
		return -1;
	}
	int n = 0;
	for (int i = 0; i < t->n_bands; i++) {
		struct leaf leaf = {.lo = t->bands[i].lo, .hi = t->bands[i].hi};
		band_tests(t, &t->bands[i], &leaf);
		if (n && same_leaf(&runs[n], &leaf))
			runs[n].hi = leaf.hi;
		else
			runs[++n] = leaf;
	}
	int rc = distance_first(runs, n) ? classes_first(t, runs, n, out) : length_tree(t, runs, n, "t", 1, out);
	free(runs);
	if (rc)
		plan_tree_free(out);
	return rc;
}

void plan_tree_free(struct plan_tree *tree)
{
	free(tree->steps);
	*tree = (struct plan_tree){0};
}
