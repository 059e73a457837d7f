/* What the tree in front of a cell that copies by the reference may cost
 * it at the grid gate, and whether the table's gain on the workload pays
 * for those paths (repair.h). */
#include "repair.h"

#include "model.h"

#include "../common/bench_grid.h"
#include "../common/size_profile.h"

#include <math.h>

/* The tree's path to the cell of n bytes at distance d, each branch and
 * the jump to the copy at branch ticks, at least GATE_BRANCH_TICKS. */
static double path_at(const struct derived_rule *r, unsigned int n, unsigned int d, double branch)
{
	int branches = rule_branches_at(r, n, d);
	branch = fmax(branch, GATE_BRANCH_TICKS);
	return branches < 0 ? TREE_TICKS_MAX : fmin(TREE_TICKS_MAX, (branches + 1) * branch);
}

double gate_path_ticks(const struct gate_grid *g, const struct derived_rule *r, unsigned int n, unsigned int d)
{
	return path_at(r, n, d, g->path_ticks);
}

double gate_point_ratio(const struct gate_grid *g, const struct derived_rule *r, int reference, size_t i, size_t j)
{
	double ratio = g->ratio[i][j], base = g->baseline_ticks[i][j];
	if (rule_choice(r, g->lengths[i], bench_grid_distances[j]) != reference || !(base > 0))
		return ratio;
	double tree = gate_path_ticks(g, r, g->lengths[i], bench_grid_distances[j]);
	if (!g->path_paid)
		return fmin(ratio, 1 + tree / base);
	return ratio > 1 ? fmax(1, ratio - tree / base) : ratio;
}

double dispatch_gain_ticks(const struct dispatch_run *d)
{
	int k = search_kept(d);
	if (!d->searched || k < 0)
		return 0;
	return d->checks[k].baseline.random - d->checks[k].table.random;
}

/* The path to n bytes' cells that copy by the reference, at the gate's
 * distances: the most of any, 0 where none does. */
static double deferring_path(const struct gate_grid *g, const struct derived_rule *r, int reference, unsigned int n)
{
	double most = 0;
	for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
		if (rule_choice(r, n, bench_grid_distances[j]) == reference)
			most = fmax(most, path_at(r, n, bench_grid_distances[j], g->workload_band_ticks));
	return most;
}

void gate_path_paid(struct gate_grid *g, const struct derived_rule *r, int reference)
{
	double ticks = 0, calls = 0;
	for (size_t k = 0; k < n_size_profile; k++) {
		ticks += size_profile[k].freq * deferring_path(g, r, reference, size_profile[k].value);
		calls += size_profile[k].freq;
	}
	g->workload_path_ticks = calls > 0 ? ticks / calls : 0;
	g->path_paid = g->gain_ticks > 0 && g->gain_ticks >= GATE_PATH_PAYBACK * g->workload_path_ticks;
}
