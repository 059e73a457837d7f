/* The parts a table's branch tree is built of, not the plan's interface
 * (tree.h): tree_length.c's class tests and length trees, on which both
 * tree.c (plan_tree, the table's own tree) and tree_classes.c (the tree
 * that tests the distance first) build. No file calls back into the one
 * that calls it. */
#ifndef PLAN_TREE_BUILD_H
#define PLAN_TREE_BUILD_H

#include "tree.h"

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
	int zero_d0; /* its zero test is of d = 0 alone (tree_zero_test_d0) */
};

/* Whether a zero test, to copy as elsewhere does, can be of d = 0 alone:
 * where no other multiple of zero_mod lies in a class tested after it
 * (tested[c]: class c is; tree_length.c says what the other test costs). */
int tree_zero_test_d0(const struct class_bounds *k, const int *tested);

/* Appends the test of class c, which jumps to copy `to` (-1: to the label
 * the caller names); d0: class zero's of d = 0 alone. */
struct plan_step *tree_class_test(struct plan_tree *out, const struct class_bounds *k, int c, int to, int d0);

/* Appends the length tree of runs[1..n], each with no distance test or
 * each with its own, its labels named from prefix; root: the table's own
 * tree, where a leaf's copy may follow its compare (tree_length.c). Nonzero
 * when out of memory. */
int tree_length_tree(const struct copy_table *t, const struct leaf *runs, int n, const char *prefix, int root,
		     struct plan_tree *out);

/* Whether the table's runs[1..n] take the tree that tests the distance
 * first, and that tree appended to out (nonzero when out of memory):
 * tree_classes.c. */
int tree_distance_first(const struct leaf *runs, int n);
int tree_classes_first(const struct copy_table *t, const struct leaf *runs, int n, struct plan_tree *out);

#endif
