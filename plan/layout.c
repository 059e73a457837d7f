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

/* The copy the tree's last step jumps to the start of, or -1. */
static int last_goto(const struct plan_tree *tree)
{
	if (tree->n_steps == 0)
		return -1;
	const struct plan_step *last = &tree->steps[tree->n_steps - 1];
	return last->op == PLAN_GOTO && last->to >= 0 && last->piece < 0 ? last->to : -1;
}

int plan_layout(const struct plan_tree *tree, int *order)
{
	int first = last_goto(tree);
	int n = add_group(tree, 1, first, order, 0);
	return add_group(tree, 0, first, order, n);
}

int plan_falls_through(const struct plan_tree *tree, int first)
{
	return first >= 0 && last_goto(tree) == first;
}
