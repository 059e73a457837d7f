/* A call's path through a table's tree (tree.h), step by step, as the
 * encoded instructions take it (encode.c's conditions). */
#include "walk.h"

#include <string.h>

/* The index of the label step named label, or -1. */
static int label_at(const struct plan_tree *tree, const char *label)
{
	for (int k = 0; k < tree->n_steps; k++)
		if (tree->steps[k].op == PLAN_LABEL && strcmp(tree->steps[k].label, label) == 0)
			return k;
	return -1;
}

/* Whether an PLAN_IF_CLASS step jumps for distance d. */
static int class_taken(const struct plan_step *s, unsigned int d)
{
	if (s->class == CLASS_ZERO)
		return s->flags ? d == 0 : (d & s->bound) == 0;
	return s->class == CLASS_BELOW ? d >= s->bound : d <= s->bound;
}

int plan_walk(const struct plan_tree *tree, unsigned int n, unsigned int d, int *branches)
{
	int n_path = 0;
	return plan_walk_path(tree, n, d, branches, NULL, &n_path, 0);
}

int plan_walk_path(const struct plan_tree *tree, unsigned int n, unsigned int d, int *branches, int *path, int *n_path,
		   int max)
{
	unsigned int bound = 0;
	*branches = 0;
	*n_path = 0;
	for (int i = 0, hops = 0; i >= 0 && i < tree->n_steps && hops <= tree->n_steps; i++) {
		const struct plan_step *s = &tree->steps[i];
		int taken;
		switch (s->op) {
		case PLAN_CMP_LENGTH:
			bound = s->bound;
			continue;
		case PLAN_IF_CLASS:
			taken = class_taken(s, d);
			break;
		case PLAN_IF_AT_MOST:
			taken = n <= bound;
			break;
		case PLAN_IF_ABOVE:
			taken = n > bound;
			break;
		case PLAN_GOTO:
			taken = 1;
			break;
		case PLAN_DISTANCE:
		case PLAN_LABEL:
			continue;
		default:
			return -1;
		}
		if (s->op != PLAN_GOTO) {
			++*branches;
			if (path && *n_path < max)
				path[(*n_path)++] = taken ? -i - 1 : i;
		}
		if (!taken)
			continue;
		if (s->to >= 0)
			return s->to;
		i = label_at(tree, s->label) - 1;
		hops++;
	}
	return -1;
}
