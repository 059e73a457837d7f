/* The grid gate's lengths: make bench's grid and every band's own points
 * (repair.h, gate_grid_cover). */
#include "repair.h"

static void add_length(struct gate_grid *g, unsigned int n, unsigned int longest)
{
	if (n < 1 || n > longest)
		return;
	for (size_t i = 0; i < g->n_lengths; i++)
		if (g->lengths[i] == n)
			return;
	if (g->n_lengths == GATE_LENGTHS_MAX)
		return;
	size_t i = g->n_lengths++;
	g->lengths[i] = n;
	for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
		g->retime[i][j] = 1;
}

void gate_grid_cover(struct gate_grid *g, const struct derived_rule *r, unsigned int longest)
{
	for (size_t i = 0; i < BENCH_GRID_LENGTHS; i++)
		if (bench_grid_lengths[i] <= longest)
			add_length(g, (unsigned int)bench_grid_lengths[i], longest);
	for (int k = 0; k < r->n_bands; k++) {
		const struct band *b = &r->bands[k];
		unsigned int hi = b->hi < longest ? b->hi : longest;
		if (b->lo > hi)
			continue;
		add_length(g, b->lo - (b->lo > 0), longest);
		add_length(g, b->lo, longest);
		add_length(g, b->lo + (hi - b->lo) / 2, longest);
	}
}
