/* The grid gate's points and its error control: every band of a table
 * judged inside and on each side of its lower edge (gate_grid_cover), and
 * a loss acted on only where Holm's procedure over every point judged
 * rejects a tie (holm_threshold, gate_grid_holm). */
#include "test_derive.h"

#include "gate_effect.h"
#include "grid_gate.h"
#include "repair.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int has_length(const struct gate_grid *g, unsigned int n)
{
	for (size_t i = 0; i < g->n_lengths; i++)
		if (g->lengths[i] == n)
			return 1;
	return 0;
}

/* How many of g's lengths lie in lo..hi. */
static int lengths_in(const struct gate_grid *g, unsigned int lo, unsigned int hi)
{
	int k = 0;
	for (size_t i = 0; i < g->n_lengths; i++)
		k += g->lengths[i] >= lo && g->lengths[i] <= hi;
	return k;
}

/* A table shaped as a Zen 5 guest's user table: bands whose insides no
 * length of make bench's grid reached before it held 512, 2048, 3072 and
 * 2 and 4 MiB (1025..1536, 1537..3072, 1048577..2097152). */
static const unsigned int zen5_like[] = {0, 65, 257, 1025, 1537, 3073, 8193, 65536, 1048577, 2097153};

static void cover(void)
{
	about("grid gate: a point inside every band and on each side of every edge");
	struct derived_rule r = {.n_bands = (int)(sizeof zen5_like / sizeof *zen5_like), .zero_mod = 4096};
	for (int k = 0; k < r.n_bands; k++) {
		r.bands[k].lo = zen5_like[k];
		r.bands[k].hi = k + 1 < r.n_bands ? zen5_like[k + 1] - 1 : BAND_UNBOUNDED;
	}
	struct gate_grid *g = calloc(1, sizeof *g);
	if (!g) {
		check(0, "out of memory");
		return;
	}
	gate_grid_cover(g, &r, 8388608);
	int inside = 1, edges = 1, grid = 1;
	for (int k = 0; k < r.n_bands; k++) {
		unsigned int hi = r.bands[k].hi < 8388608 ? r.bands[k].hi : 8388608;
		inside &= lengths_in(g, r.bands[k].lo + 1, hi > r.bands[k].lo ? hi - 1 : hi) > 0;
		if (r.bands[k].lo > 0)
			edges &= has_length(g, r.bands[k].lo - 1) && has_length(g, r.bands[k].lo);
	}
	for (size_t i = 0; i < BENCH_GRID_LENGTHS; i++)
		grid &= has_length(g, (unsigned int)bench_grid_lengths[i]);
	check(inside, "a band has no length of the gate strictly inside it");
	check(edges, "a band edge lacks a length of the gate on one side");
	check(grid, "a length of make bench's grid is not among the gate's");
	int retimed = 1;
	for (size_t i = 0; i < g->n_lengths; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			retimed &= g->retime[i][j];
	check(retimed, "a length the gate added is not marked to time");
	size_t before = g->n_lengths;
	gate_grid_cover(g, &r, 8388608);
	check(g->n_lengths == before, "covering again added %zu lengths", g->n_lengths - before);
	/* The control: make bench's grid alone misses three bands' insides. */
	struct gate_grid *only = calloc(1, sizeof *only);
	struct derived_rule none = {.n_bands = 0};
	if (only) {
		gate_grid_cover(only, &none, 8388608);
		int missed = 0;
		for (int k = 0; k < r.n_bands; k++)
			missed += lengths_in(only, r.bands[k].lo + 1, r.bands[k].hi - 1) == 0;
		check(missed >= 1 && only->n_lengths == BENCH_GRID_LENGTHS,
		      "make bench's grid alone reaches inside every band (%d missed): the check cannot tell", missed);
	}
	free(only);
	free(g);
}

static void holm(void)
{
	about("grid gate: Holm's procedure over every point judged");
	double p[] = {0.04, 0.001, 0.02, 0.0001};
	/* Sorted 0.0001, 0.001, 0.02, 0.04 against 0.05 / 4, / 3, / 2 and / 1:
	 * each at or under its bound, so all four are rejected. Over a family
	 * of 100, 0.001 is over 0.05 / 99: the first alone. */
	check(holm_threshold(p, 4, 4, 0.05) == 0.04, "Holm over four rejects up to %g, not 0.04",
	      holm_threshold(p, 4, 4, 0.05));
	double q[] = {0.04, 0.001, 0.02, 0.0001};
	check(holm_threshold(q, 4, 100, 0.05) == 0.0001, "Holm over a family of 100 rejects up to %g, not 0.0001",
	      holm_threshold(q, 4, 100, 0.05));
	double none[] = {0.3};
	check(holm_threshold(none, 1, 1, 0.05) < 0, "Holm rejects a p-value of 0.3");
	check(fabs(grid_gate_tie_p(15, 15) - ldexp(1.0, -15)) < 1e-15 && grid_gate_tie_p(0, 15) == 1 &&
		      fabs(grid_gate_tie_p(14, 15) - 16 * ldexp(1.0, -15)) < 1e-15,
	      "the sign test's p-values are not the binomial tail");

	/* One point of a gate of 60 lengths on 2 CPUs loses by 10%: in 14 of
	 * 15 rounds it is no loss (p = 5e-4 over 1560 tests), as it was
	 * alone; in 45 of 45 with every timing over the effect size it is. */
	struct gate_grid *g = calloc(1, sizeof *g);
	struct derived_rule r = {.n_bands = 1, .zero_mod = 4096};
	r.bands[0].hi = BAND_UNBOUNDED;
	if (!g) {
		check(0, "out of memory");
		return;
	}
	g->n_lengths = 60;
	for (size_t i = 0; i < g->n_lengths; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			g->lengths[i] = (unsigned int)(64 * (i + 1)), g->ratio[i][j] = 1.0,
			g->slower[i][j] = GRID_GATE_ROUNDS / 2, g->rounds[i][j] = GRID_GATE_ROUNDS;
	g->family = 60 * BENCH_GRID_DISTANCES * 2;
	g->ratio[7][3] = 1.10, g->slower[7][3] = GRID_GATE_ROUNDS - 1;
	gate_grid_holm(g, &r, -1, 0.03);
	check(!gate_point_loses(g, &r, -1, 7, 3, 0.03) && grid_gate_loses(1.10, GRID_GATE_ROUNDS - 1, GRID_GATE_ROUNDS, 0.03),
	      "14 slower rounds of 15 at one of 1560 points lose, or would not have alone");
	g->slower[7][3] = g->rounds[7][3] = 3 * GRID_GATE_ROUNDS, g->least[7][3] = 1.06;
	gate_grid_holm(g, &r, -1, 0.03);
	check(gate_point_loses(g, &r, -1, 7, 3, 0.03), "45 slower rounds of 45 at 1.10x, each timing over 1.06x, do not lose");
	g->least[7][3] = 1.02;
	gate_grid_holm(g, &r, -1, 0.03);
	check(!gate_point_loses(g, &r, -1, 7, 3, 0.03), "a point one of whose timings ties loses");
	g->least[7][3] = 1.06, g->placement_sd = 0.04;
	gate_grid_holm(g, &r, -1, 0.03);
	double effect = gate_effect_size(0.03, 0.04, g->family, GATE_FAMILY_ERROR);
	check(effect > 0.06 && effect < 0.10 && !gate_point_loses(g, &r, -1, 7, 3, 0.03),
	      "at a placement spread of 4%% the effect size is %.3f and a timing of 1.06x loses", effect);
	free(g);
}

void derive_gate_points(void)
{
	cover();
	holm();
}
