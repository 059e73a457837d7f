/* The copies' layout after a tree (layout.h). */
#include "layout.h"

int plan_inline(int strategy)
{
	const struct strategy *s = &strategy_catalogue[strategy];
	return s->max_n >= 0 && s->direction == DIR_ANY;
}

/* Appends the copies of group (inline or not) that tree reaches to
 * order[n..), first the one it ends at; returns the new count. */
static int add_group(const struct plan_tree *tree, int inline_group, int first, int *order, int n)
{
	if (first >= 0 && plan_inline(first) == inline_group)
		order[n++] = first;
	for (int s = 0; s < N_COPY_STRATEGIES; s++)
		if (tree->used[s] && s != first && plan_inline(s) == inline_group)
			order[n++] = s;
	return n;
}

int plan_layout(const struct plan_tree *tree, int *order)
{
	int first = -1;
	if (tree->n_steps > 0) {
		const struct plan_step *last = &tree->steps[tree->n_steps - 1];
		if (last->op == PLAN_GOTO && last->to >= 0 && last->piece < 0)
			first = last->to;
	}
	int n = add_group(tree, 1, first, order, 0);
	return add_group(tree, 0, first, order, n);
}
