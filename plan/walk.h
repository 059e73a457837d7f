/* A call's path through a table's tree: the copy it reaches and the
 * conditional branches it runs on the way, for the derivation's model of
 * what a tree costs (derive/model.c) and the tests that check a tree's
 * shape. */
#ifndef PLAN_WALK_H
#define PLAN_WALK_H

#include "tree.h"

/* The strategy tree's steps reach for length n at distance d (mod 4096),
 * and in *branches the conditional jumps run before it, taken or not;
 * -1 where the steps reach no copy. */
int plan_walk(const struct plan_tree *tree, unsigned int n, unsigned int d, int *branches);

/* The same, and the conditional steps run, in order, into path[0..max):
 * a step's index where it fell through, -1 - the index where it jumped;
 * how many in *n_path. */
int plan_walk_path(const struct plan_tree *tree, unsigned int n, unsigned int d, int *branches, int *path, int *n_path,
		   int max);

#endif
