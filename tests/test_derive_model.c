/* The distance is tested where it pays (derive/model.c, plan/walk.c): a
 * forged core whose rep movsb stalls 20x at d = 1..31 from 64 bytes, as
 * Zen 2's did (seed 000), and whose register copy is 2.7x faster than rep
 * movsb at 8..32 bytes, as a Zen 3 guest's small was (measured: see
 * docs/notebook/measurements-2026-12.md#the-model-tests-forged-core).
 * The derived table keeps both the descending copy there and the small
 * copies; its tree reaches a short copy through length compares alone;
 * and the model puts it at 0.75x rep movsb's time on the random-size
 * workload or less. The controls: a tree that tests the class first
 * fails the shape check, and the model charges a class test in front of
 * every call. */
#include "test_derive.h"

#include "model.h"
#include "../plan/walk.h"

#include <stdlib.h>

/* Ticks of rep movsb at n bytes, d: a start-up and 16 bytes a tick, 20x
 * where the destination lies 1..31 bytes above the source from 64 bytes. */
static double forward_ticks(unsigned int n, unsigned int d)
{
	double t = 26 + n / 16.0;
	return n >= 64 && d >= 1 && d <= 31 ? 20 * t : t;
}

static void add(struct timings *t, int s, unsigned int n, unsigned int d, double ticks)
{
	timings_add(t, (struct row){s, n, d, d & 63, ticks, 0.01});
}

static void forge(struct timings *t)
{
	static const unsigned int longer[] = {80,  96,   112,  128,  160,  192,  256,   384,
					      512, 768, 1024, 2048, 4096, 8192, 16384, 65536};
	unsigned int lengths[64 + sizeof longer / sizeof *longer], distances[128];
	size_t nl = 0, nd = 0;
	for (unsigned int n = 1; n <= 64; n++)
		lengths[nl++] = n;
	for (size_t i = 0; i < sizeof longer / sizeof *longer; i++)
		lengths[nl++] = longer[i];
	for (unsigned int d = 0; d <= 65; d++)
		distances[nd++] = d;
	for (unsigned int k = 0; k < 30; k++)
		distances[nd++] = 192 + 128 * k + (k * 23) % 64;
	static const unsigned int below[] = {3968, 4024, 4064, 4088, 4092, 4093, 4094, 4095};
	for (size_t i = 0; i < sizeof below / sizeof *below; i++)
		distances[nd++] = below[i];
	for (size_t i = 0; i < nl; i++)
		for (size_t j = 0; j < nd; j++) {
			unsigned int n = lengths[i], d = distances[j];
			double f = forward_ticks(n, d), plain = forward_ticks(n, 0);
			add(t, F, n, d, f);
			if (n <= 32)
				add(t, SMALL, n, d, n >= 8 ? plain / 2.7 : plain / 1.5);
			if (n >= 8)
				add(t, DOWN, n, d, 1.3 * plain);
		}
}

/* Whether a call of n bytes at d runs a class test before its copy. */
static int tests_class(const struct derived_rule *r, unsigned int n, unsigned int d)
{
	struct copy_table t;
	struct plan_tree tree = {0};
	int path[64], n_path, branches, found = 0;
	rule_table(r, &t);
	if (plan_tree(&t, &tree))
		return -1;
	plan_walk_path(&tree, n, d, &branches, path, &n_path, 64);
	for (int k = 0; k < n_path; k++)
		found |= tree.steps[path[k] < 0 ? -path[k] - 1 : path[k]].op == PLAN_IF_CLASS;
	plan_tree_free(&tree);
	return found;
}

void derive_model(void)
{
	about("the distance tested where it pays: the stall and the small copies, forged");
	struct timings t = {0};
	struct derived_rule *r = malloc(sizeof *r), *base = malloc(sizeof *base), *first = malloc(sizeof *first);
	const struct derive_cost cost = {.band_ticks = 1.0, .multiple = 1, .measured = 1};
	const struct model_costs mc = {MODEL_COMPARE_TICKS_DEFAULT, MODEL_MISPREDICT_TICKS_DEFAULT};
	struct model_figures table, forward, classes_first;
	forge(&t);
	if (!r || !base || !first || derive_rule(&t, &cost, r)) {
		check(0, "the forged table does not derive: %.300s", r ? r->note : "");
		goto out;
	}
	check(rule_choice(r, 8, 2061) == SMALL && rule_choice(r, 16, 16) == SMALL && rule_choice(r, 32, 4095) == SMALL,
	      "8..32 bytes do not copy by small");
	check(rule_choice(r, 64, 16) == DOWN && rule_choice(r, 4096, 1) == DOWN && rule_choice(r, 65536, 31) == DOWN,
	      "the stall at d = 1..31 from 64 bytes does not copy down");
	check(rule_choice(r, 4096, 2061) == F && rule_choice(r, 4096, 32) == F && rule_choice(r, 64, 0) == F,
	      "every other distance from 64 bytes does not copy by rep movsb");
	check(tests_class(r, 8, 16) == 0 && tests_class(r, 32, 2061) == 0 && tests_class(r, 4096, 16) == 1,
	      "a short copy runs a class test, or a long one in the stall none: the distance is not behind the lengths");
	derived_baseline(base);
	if (rule_model(&t, r, &mc, 0, &table) || rule_model(&t, base, &mc, 0, &forward) ||
	    rule_model(&t, r, &mc, 1, &classes_first)) {
		check(0, "the model fails");
		goto out;
	}
	check(table.total <= 0.75 * forward.total, "the table's model, %.2f ticks a call, is over 0.75x rep movsb's %.2f",
	      table.total, forward.total);
	check(forward.branches_a_call == 0 && forward.mispredicts_a_call == 0,
	      "every copy forward is modelled with a branch (%.2f)", forward.branches_a_call);
	/* The controls. A class test in front of every call costs each call
	 * its compare, and mispredicts as often as calls fall in the class;
	 * a table whose every band copies elsewhere alike (small gone) gets a
	 * tree that tests the distance first, which the shape check refuses. */
	check(classes_first.total > table.total && classes_first.branches_a_call > table.branches_a_call,
	      "the model does not charge a class test in front of every call (%.2f against %.2f)", classes_first.total,
	      table.total);
	*first = *r;
	for (int b = 0; b < first->n_bands; b++)
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			if (first->bands[b].strategy[c] == SMALL)
				first->bands[b].strategy[c] = F;
	check(tests_class(first, 8, 2061) == 1, "a tree that tests the distance first passes the shape check");
out:
	free(r), free(base), free(first);
	timings_free(&t);
}
