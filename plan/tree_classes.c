/* The tree of a table that tests the distance first (tree_build.h): the
 * length matters only in the classes whose copy changes with it. */
#include "tree_build.h"

#include "pieces.h"

#include <stdio.h>
#include <stdlib.h>

/* Whether the tree tests the distance before the length: where every band
 * copies the class elsewhere alike, by a copy with no pieces, and some
 * band tests a class. Then the length matters only in the classes whose
 * copy changes with it, and a call elsewhere, where most distances fall,
 * runs the class tests and no length compare: a table that copies every
 * class forward but one runs faster on random sizes so tested than tested
 * length first (measured: see
 * docs/notebook/measurements-2026-12.md#the-distance-tested-first). */
int tree_distance_first(const struct leaf *runs, int n)
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
 * test must be of d mod zero_mod, not d = 0 alone (tree_zero_test_d0: a
 * multiple of zero_mod lies in the above or near class), and no below
 * class is tested. Then the zero test matters only for the distances of
 * those classes, d <= the last one's bound, and the tree tests that
 * first: a call elsewhere runs one compare that it seldom takes, not the
 * zero test, which a quarter or more of the workload's calls take in no
 * order a predictor learns (their addresses are multiples of 16). With
 * the zero test first, a table that copies its own way in a few classes
 * took far longer than rep movsb on random sizes; with this compare
 * first, about as long (measured: see
 * docs/notebook/measurements-2026-12.md#one-compare-before-the-zero-test). */
static int low_gate(const struct class_bounds *k, const int *tested, int zero_as_elsewhere)
{
	if (!zero_as_elsewhere || tested[CLASS_BELOW] || tree_zero_test_d0(k, tested))
		return -1;
	return tested[CLASS_NEAR] ? CLASS_NEAR : CLASS_ABOVE;
}

static const char *const class_label[N_DISTANCE_CLASSES] = {
	[CLASS_ZERO] = "zero_", [CLASS_ABOVE] = "above_", [CLASS_NEAR] = "near_", [CLASS_BELOW] = "below_"};

/* The distance first (tree_distance_first): each class that some band
 * tests, in test order, jumps to its copy where every band copies it
 * alike, else to its own length tree; elsewhere's copy is reached last
 * with no further test. Nonzero when out of memory. */
int tree_classes_first(const struct copy_table *t, const struct leaf *runs, int n, struct plan_tree *out)
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
		snprintf(tree_class_test(out, &t->classes, gate, -1, 0)->label, sizeof out->steps->label, "low_classes");
		plan_emit(out, PLAN_GOTO, runs[1].elsewhere);
		snprintf(plan_emit(out, PLAN_LABEL, -1)->label, sizeof out->steps->label, "low_classes");
	}
	for (int i = 0; i < N_TESTED; i++) {
		int c = tested_classes[i];
		if (!tested[c])
			continue;
		int d0 = c == CLASS_ZERO && zero_as_elsewhere && tree_zero_test_d0(&t->classes, tested);
		struct plan_step *s = tree_class_test(out, &t->classes, c, own_tree[c] ? -1 : t->bands[0].strategy[c], d0);
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
		rc = tree_length_tree(t, column, m, class_label[c], 0, out);
	}
	free(column);
	return rc;
}
