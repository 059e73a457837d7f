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

_Static_assert(N_COPY_STRATEGIES <= 32, "plan_held's mask has a bit for every strategy");

unsigned int plan_held(const int *order, int n)
{
	unsigned int held = 0;
	for (int i = 0; i < n; i++)
		if (plan_inline(order[i]))
			held |= 1u << order[i];
	return held;
}

static int holds(unsigned int held, int strategy)
{
	return strategy >= 0 && (held >> strategy & 1u);
}

int plan_moved(const struct plan_tree *tree, int i, unsigned int held, int falls_through)
{
	const struct plan_step *x = &tree->steps[i];
	if (falls_through && i == tree->n_steps - 1)
		return 0;
	int jumps = x->op == PLAN_GOTO || x->op == PLAN_IF_AT_MOST ||
		    ((x->op == PLAN_IF_CLASS || x->op == PLAN_IF_ABOVE) && x->to >= 0);
	return jumps && !holds(held, x->to);
}

int plan_falls_here(const struct plan_tree *tree, int i, unsigned int held)
{
	const struct plan_step *x = &tree->steps[i];
	return x->op == PLAN_GOTO && x->falls && holds(held, x->to);
}
