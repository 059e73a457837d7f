/* A cell that copies by the reference, judged net of its path where the
 * table's gain on the workload pays for the paths (derive/gate_path.c):
 * forged ratios over hand-made tables. Controls: the same point where the
 * gain does not pay is judged by what it timed, capped at its path, and
 * loses; a table that defers the workload's own lengths does not pay. */
#include "test_derive.h"

#include "dispatch.h"
#include "repair.h"

#include <math.h>
#include <stdlib.h>

/* 0..32 bytes by small, 33..4096 by `middle`, from 4097 by libc. */
static void three_bands(struct derived_rule *r, int middle)
{
	static const unsigned int lo[3] = {0, 33, 4097}, hi[3] = {32, 4096, BAND_UNBOUNDED};
	int copy[3] = {SMALL, middle, STRATEGY_LIBC};
	derived_baseline(r);
	r->n_bands = 3;
	for (int b = 0; b < 3; b++) {
		r->bands[b].lo = lo[b], r->bands[b].hi = hi[b];
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			r->bands[b].strategy[c] = copy[b];
	}
}

/* g: one point, 65536 bytes at d = 0, timed at ratio over every copy
 * forward's ticks there, slower in every round. */
static void one_point(struct gate_grid *g, double ratio, double ticks)
{
	g->n_lengths = 1, g->lengths[0] = 65536;
	for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
		g->ratio[0][j] = 1.0, g->least[0][j] = 1.0, g->slower[0][j] = GRID_GATE_ROUNDS / 2,
		g->rounds[0][j] = GRID_GATE_ROUNDS, g->baseline_ticks[0][j] = ticks;
	g->ratio[0][0] = g->least[0][0] = ratio, g->slower[0][0] = GRID_GATE_ROUNDS;
}

void derive_gate_path(void)
{
	about("grid gate: a deferring cell's path, paid by the workload's gain");
	struct derived_rule *r = malloc(sizeof *r);
	struct gate_grid *g = calloc(1, sizeof *g);
	if (!r || !g) {
		check(0, "out of memory");
		goto out;
	}
	three_bands(r, F);
	double path = gate_path_ticks(g, r, 65536, 0);
	check(path >= 2 * GATE_BRANCH_TICKS && path < TREE_TICKS_MAX, "the path to 65536 bytes is %.1f ticks", path);
	/* 1 + path / 60 + 0.02 over 60 ticks: over the noise even at the cap,
	 * within it net of the path. */
	double ratio = 1 + path / 60 + 0.02;
	one_point(g, ratio, 60);
	g->gain_ticks = 5;
	gate_grid_holm(g, r, STRATEGY_LIBC, 0.03);
	check(g->path_paid && g->workload_path_ticks == 0,
	      "a table whose workload lengths copy by small and forward does not pay for its libc cells "
	      "(workload path %.2f ticks, gain 5)",
	      g->workload_path_ticks);
	check(!gate_point_loses(g, r, STRATEGY_LIBC, 0, 0, 0.03) &&
		      fabs(gate_point_ratio(g, r, STRATEGY_LIBC, 0, 0) - 1.02) < 1e-9,
	      "a libc cell timed %.3fx, its path %.1f ticks of 60, is judged %.3fx, not 1.020x, where the gain pays",
	      ratio, path, gate_point_ratio(g, r, STRATEGY_LIBC, 0, 0));
	g->gain_ticks = 0;
	gate_grid_holm(g, r, STRATEGY_LIBC, 0.03);
	check(!g->path_paid && gate_point_loses(g, r, STRATEGY_LIBC, 0, 0, 0.03),
	      "a libc cell timed %.3fx, its path %.1f ticks of 60, passes where the run measured no gain", ratio,
	      path);
	three_bands(r, STRATEGY_LIBC);
	g->gain_ticks = 2;
	gate_grid_holm(g, r, STRATEGY_LIBC, 0.03);
	check(!g->path_paid && g->workload_path_ticks > 0.2 && gate_point_loses(g, r, STRATEGY_LIBC, 0, 0, 0.03),
	      "a table that sends 33..4096 bytes to libc pays for its paths (%.2f ticks a call on the workload, "
	      "gain 2) or its libc cell passes",
	      g->workload_path_ticks);
out:
	free(r), free(g);
}
