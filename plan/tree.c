/* A table compiled to a branch tree (tree.h). */
#include "tree_build.h"

#include <stdlib.h>

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
	leaf->zero_d0 = b->strategy[CLASS_ZERO] == elsewhere && tree_zero_test_d0(&t->classes, tested);
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
	int rc = tree_distance_first(runs, n) ? tree_classes_first(t, runs, n, out)
					      : tree_length_tree(t, runs, n, "", 1, out);
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
