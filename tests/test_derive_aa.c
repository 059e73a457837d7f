/* The grid gate's false-refusal rate, an A/A test by simulation: the
 * gate's rule (gate_grid_holm, gate_point_loses) judges timings of a table
 * that takes exactly the time of what it is timed against, at every point
 * of a full gate on two CPUs, with the spread a recorded run measured.
 * It must refuse at most GATE_FAMILY_ERROR of such runs; a test of each
 * point alone at 2% (grid_gate_loses, the rule before Holm's procedure)
 * refuses most of them, the control that the simulation can tell. */
#include "test_derive.h"

#include "archive.h"
#include "gate_effect.h"
#include "grid_gate.h"
#include "repair.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The simulated runs: enough that a rate of 5% shows within a few points. */
#define AA_RUNS 400
/* The gate's lengths in a full run: make bench's grid and three points
 * for each of sixteen bands, less those they share. */
#define AA_LENGTHS 60
#define AA_CPUS 2

static uint64_t aa_state = 0x9e3779b97f4a7c15u;

/* A standard normal draw (Box-Muller over xorshift64*), seeded the same
 * every run so the test's figure repeats. */
static double normal(void)
{
	double u[2];
	for (int k = 0; k < 2; k++) {
		aa_state ^= aa_state >> 12, aa_state ^= aa_state << 25, aa_state ^= aa_state >> 27;
		u[k] = ((double)((aa_state * 0x2545f4914f6cdd1du) >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* How much of its rounds' spread a timing's median keeps: about
 * 1.25 / sqrt(rounds), the median's efficiency for a normal sample. */
static double rounds_part(void)
{
	return 1.25 / sqrt(GRID_GATE_ROUNDS);
}

/* One timing of a point: GRID_GATE_ROUNDS rounds at one placement, whose
 * offset every round shares; its median ratio and slower rounds. */
static double sweep(double place_sd, double round_sd, int *slower)
{
	double r[GRID_GATE_ROUNDS], offset = place_sd * normal();
	*slower = 0;
	for (int k = 0; k < GRID_GATE_ROUNDS; k++) {
		r[k] = exp(offset + round_sd * normal());
		*slower += r[k] > 1;
	}
	qsort(r, GRID_GATE_ROUNDS, sizeof *r, cmp_double);
	return r[GRID_GATE_ROUNDS / 2];
}

/* Point (i, j) of g timed as the probe times it on one CPU: once, and
 * where its median is over the noise twice more (median of three, slower
 * rounds pooled, the least median kept). */
static void time_point(struct gate_grid *g, size_t i, size_t j, double place_sd, double round_sd, double noise)
{
	int s[3];
	double m[3];
	m[0] = sweep(place_sd, round_sd, &s[0]);
	g->ratio[i][j] = g->least[i][j] = m[0], g->slower[i][j] = s[0], g->rounds[i][j] = GRID_GATE_ROUNDS;
	if (m[0] <= 1 + noise)
		return;
	m[1] = sweep(place_sd, round_sd, &s[1]), m[2] = sweep(place_sd, round_sd, &s[2]);
	qsort(m, 3, sizeof *m, cmp_double);
	g->ratio[i][j] = m[1], g->least[i][j] = m[0];
	g->slower[i][j] = s[0] + s[1] + s[2], g->rounds[i][j] = 3 * GRID_GATE_ROUNDS;
}

/* One simulated gate on AA_CPUS CPUs, each point judged by the CPU where
 * it does worst, as the probe judges: whether it refuses, by the gate's
 * rule or, per_point, by each point's own test at 2%. */
static int gate_refuses(struct gate_grid *g, const struct derived_rule *r, double place_sd, double round_sd,
			double noise, int per_point)
{
	static struct gate_grid other;
	memset(g, 0, sizeof *g);
	g->n_lengths = AA_LENGTHS;
	for (size_t i = 0; i < AA_LENGTHS; i++)
		g->lengths[i] = (unsigned int)(64 * (i + 1));
	other = *g;
	for (size_t i = 0; i < AA_LENGTHS; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++) {
			time_point(g, i, j, place_sd, round_sd, noise);
			time_point(&other, i, j, place_sd, round_sd, noise);
			int la = grid_gate_loses(g->ratio[i][j], g->slower[i][j], g->rounds[i][j], noise),
			    lb = grid_gate_loses(other.ratio[i][j], other.slower[i][j], other.rounds[i][j], noise);
			if (lb > la || (lb == la && other.ratio[i][j] > g->ratio[i][j]))
				g->ratio[i][j] = other.ratio[i][j], g->least[i][j] = other.least[i][j],
				g->slower[i][j] = other.slower[i][j], g->rounds[i][j] = other.rounds[i][j];
		}
	g->family = AA_LENGTHS * BENCH_GRID_DISTANCES * AA_CPUS;
	/* What the probe measures of it: one timing's spread (rounds_part). */
	g->placement_sd = sqrt(place_sd * place_sd + rounds_part() * rounds_part() * round_sd * round_sd);
	/* No strategy is the reference: every cell is judged by what it timed. */
	gate_grid_holm(g, r, -1, noise);
	for (size_t i = 0; i < AA_LENGTHS; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			if (per_point ? grid_gate_loses(g->ratio[i][j], g->slower[i][j], g->rounds[i][j], noise)
				      : gate_point_loses(g, r, -1, i, j, noise))
				return 1;
	return 0;
}

static double refusal_rate(const struct derived_rule *r, double place_sd, double round_sd, double noise,
			   int per_point)
{
	struct gate_grid *g = malloc(sizeof *g);
	int refused = 0;
	for (int k = 0; g && k < AA_RUNS; k++)
		refused += gate_refuses(g, r, place_sd, round_sd, noise, per_point);
	free(g);
	return (double)refused / AA_RUNS;
}

void derive_aa(void)
{
	about("grid gate: the false-refusal rate of identical copies (an A/A simulation)");
	struct run_archive a;
	char why[256];
	if (archive_load("tests/fixtures/zen5_guest_user.run", &a, why, sizeof why)) {
		check(0, "the recorded run does not load: %s", why);
		return;
	}
	double sd = ratio_placement_sd(&a.m), noise = DERIVE_NOISE_FLOOR;
	archive_free(&a);
	struct derived_rule r = {.n_bands = 1, .zero_mod = 4096};
	r.bands[0].hi = BAND_UNBOUNDED;
	/* The measured spread is that of one timing, its placement's and its
	 * rounds' together, the rounds as spread as the placements. */
	double place = sd / sqrt(1 + rounds_part() * rounds_part());
	double gate = refusal_rate(&r, place, sd, noise, 0), alone = refusal_rate(&r, place, sd, noise, 1);
	printf("  A/A: placement spread %.2f%% a ratio; refused %.1f%% of %d simulated gates of %d points on %d CPUs "
	       "(each point alone at 2%%: %.1f%%)\n",
	       sd * 100, gate * 100, AA_RUNS, AA_LENGTHS * (int)BENCH_GRID_DISTANCES, AA_CPUS, alone * 100);
	check(sd > 0.001 && sd < 0.2, "the recorded run's placement spread is %.4f", sd);
	check(gate <= GATE_FAMILY_ERROR, "the gate refused %.1f%% of identical tables, more than %.0f%%", gate * 100,
	      GATE_FAMILY_ERROR * 100);
	check(alone > 2 * GATE_FAMILY_ERROR, "each point tested alone refused only %.1f%%: the simulation cannot tell",
	      alone * 100);
	/* Twice the spread: the gate still holds its rate where the machine is
	 * noisier than the run it was measured on. */
	double noisy = refusal_rate(&r, 2 * place, 2 * sd, noise, 0);
	printf("  A/A: at twice the spread, refused %.1f%%\n", noisy * 100);
	check(noisy <= GATE_FAMILY_ERROR, "at twice the spread the gate refused %.1f%% of identical tables",
	      noisy * 100);
}
