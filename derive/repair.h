/* Repair instead of refusal: where the check of a kept table (the grid
 * gate) finds a point that loses to every copy forward beyond the noise,
 * the cell that copies there takes the next copy its measurements rank,
 * and the table is checked again; and a table derived from a run that
 * never timed a compiled tree keeps only the cells long enough that no
 * tree's cost can change their verdict. Pure: the probe times, the import
 * replays. */
#ifndef DERIVE_REPAIR_H
#define DERIVE_REPAIR_H

#include "derive.h"
#include "dispatch.h"

#include "../common/bench_grid.h"

/* The most a compiled tree was measured to cost a call, in ticks: the
 * probe's eight-band alternating table on the random-size workload
 * against its one-band table sorted, the largest of every recorded run,
 * rounded up (measured: see
 * docs/notebook/measurements-2026-12.md#the-most-a-tree-costs). A cell
 * whose every copy takes this many ticks over the noise or more keeps its
 * verdict whatever tree reaches it. */
#define TREE_TICKS_MAX 25.0

/* The lengths a repair at length n changes: those of n's band between the
 * grid's lengths on either side of n (common/bench_grid.h), so that a
 * loss at one point of the grid costs its cell no more than the lengths
 * nearest it; where r has no room (MAX_BANDS) for the bands that split
 * makes, up to the band's end above, then below too. */
void repair_range(const struct derived_rule *r, unsigned int n, unsigned int *lo, unsigned int *hi);

/* The copies that may replace the one r runs at length n, distance d, best
 * first: those that serve every length of its repair_range (not the small trial's
 * substitute), measured at every point of the cell in t, slower than the
 * baseline by no more than r->noise at any of them, ranked by the mean log
 * of their time over the best measured there; the baseline always among
 * them where the cell does not copy by it. Fills out[0..max); returns how
 * many. */
int repair_options(const struct timings *t, const struct derived_rule *r, unsigned int n, unsigned int d, int *out,
		   int max);

/* Applies one repair to r: the cell at (p->length, p->distance) must copy
 * by p->from and its band hold p->lo..p->hi; those lengths of the cell
 * copy by p->to after, the band split around them, neighbouring bands
 * alike merged, align_dst set again. Nonzero, with why said, where r's cell there copies
 * otherwise (an archive that contradicts its table). */
int repair_apply(struct derived_rule *r, const struct grid_repair *p, char *why, size_t why_size);

/* The shortest length measured in t from which every length's baseline
 * time, at every distance, exceeds TREE_TICKS_MAX over the noise: the
 * first length at which a tree cannot turn a cell's win into a loss. */
unsigned int unchecked_supported_from(const struct timings *t, double noise);

/* r, derived from a run that timed no compiled tree (an archive before
 * the grid gate): every cell shorter than unchecked_supported_from copies
 * by the baseline, a band split there where it straddles it. Judged again
 * on t (rule_regret); the note says what was dropped. Nonzero with the
 * note saying why on failure. */
int unchecked_keep_long(const struct timings *t, struct derived_rule *r);

/* The most lengths the grid gate times: make bench's grid, and three for
 * each band a table has held as the gate repaired it (gate_grid_cover). */
#define GATE_LENGTHS_MAX (BENCH_GRID_LENGTHS + 3 * (MAX_BANDS + 2 * REPAIRS_MAX))

/* The grid gate's points up to the probe's longest length: its lengths
 * (gate_grid_cover) at make bench's distances; each point's ratio of the
 * table to every copy forward as last timed; the copies that lost at it,
 * a bit each, never proposed again to a cell that holds it; and, after a
 * round, the points to time again. */
struct gate_grid {
	size_t n_lengths;
	unsigned int lengths[GATE_LENGTHS_MAX];
	double ratio[GATE_LENGTHS_MAX][BENCH_GRID_DISTANCES];
	/* In how many of its rounds the table was the slower, of how many. */
	int slower[GATE_LENGTHS_MAX][BENCH_GRID_DISTANCES];
	int rounds[GATE_LENGTHS_MAX][BENCH_GRID_DISTANCES];
	/* Every copy forward's ticks a call there, the median of its rounds. */
	double baseline_ticks[GATE_LENGTHS_MAX][BENCH_GRID_DISTANCES];
	/* The least of its timings' median ratios: a loss shows in each. */
	double least[GATE_LENGTHS_MAX][BENCH_GRID_DISTANCES];
	unsigned int lost[GATE_LENGTHS_MAX][BENCH_GRID_DISTANCES];
	int retime[GATE_LENGTHS_MAX][BENCH_GRID_DISTANCES];
	/* What a branch on the path to a cell costs a call, in ticks, as the
	 * run measured it: where every branch predicts, as at a point of the
	 * grid (dispatch_predicted_band_ticks; gate_path_ticks), and on the
	 * random-size workload, where they mispredict as they do there
	 * (dispatch_band_ticks, and the first; gate_path_paid). 0:
	 * GATE_BRANCH_TICKS. */
	double path_ticks, workload_band_ticks;
	/* What the table saves a call on the random-size workload, as the
	 * search's check timed it (dispatch_gain_ticks; 0: not known); what
	 * the paths to its cells that copy by the reference cost that
	 * workload a call (gate_path_paid); and whether the first pays for
	 * the second GATE_PATH_PAYBACK times over. */
	double gain_ticks, workload_path_ticks;
	int path_paid;
	/* The tests the gate makes, its points on all its CPUs (0: its
	 * points), and the largest sign-test p-value that Holm's procedure
	 * rejects among them (gate_grid_holm; -1: none). */
	size_t family;
	double p_reject;
	/* A ratio's spread from one placement to the next, as the run measured
	 * it (gate_effect.h, ratio_placement_sd); 0: the noise alone. */
	double placement_sd;
	/* The effect size gate_grid_holm judged by (gate_effect_size); 0:
	 * the noise. */
	double effect;
	/* Where a round stopped with no repair to make: the point (indices
	 * into the grid), its cell's copy, and why. */
	int stuck_length, stuck_distance, stuck_from;
	char stuck_why[256];
};

/* Adds to g's lengths, up to longest, those of make bench's grid and, for
 * each band of r, its first length and the one before it (a point on
 * each side of its lower edge) and its middle (up to longest): so that
 * every band the table ships is judged inside and at its edges, not only
 * where the grid's lengths happen to fall. A length added is marked to
 * time at every distance. Where a repair split bands, adding again covers
 * the new ones. */
void gate_grid_cover(struct gate_grid *g, const struct derived_rule *r, unsigned int longest);

/* What a predicted branch costs a call at least, in ticks: a conditional
 * jump that predicts retires in a cycle (recorded runs' trees measured
 * 0.15 to 0.45 ticks a compare on a sorted stream, model_costs_of). */
#define GATE_BRANCH_TICKS 1.0

/* What the tree in front of the cell of n bytes at distance d costs a
 * call of one length over and over, in ticks: its branches and the jump
 * to the copy, each at g->path_ticks, or GATE_BRANCH_TICKS where that is
 * less; at most TREE_TICKS_MAX, which is also the bound where the tree
 * cannot be walked. */
double gate_path_ticks(const struct gate_grid *g, const struct derived_rule *r, unsigned int n, unsigned int d);

/* How many times over the table's gain on the workload must pay for what
 * the paths to its deferring cells cost that workload before the gate
 * judges those cells net of their paths (gate_point_ratio). */
#define GATE_PATH_PAYBACK 10.0

/* The ratio point (i, j) of g is judged by: its median ratio, but where r
 * copies there by the reference (timings_reference: every copy forward's
 * own copy), what is left of it once its path (gate_path_ticks) is paid.
 * Such a cell differs from every copy forward only by the tree in front
 * of it. Where the table's gain on the workload pays for those paths
 * (g->path_paid), a ratio over 1 less the path over every copy forward's
 * ticks there, and 1 at least: such a cell may cost a call its path, and
 * the effect size, more than every copy forward. Where it does not, the
 * ratio, at most 1 + the path over those ticks: a larger ratio is the
 * machine's, not the table's, but the path itself is judged as a loss. */
double gate_point_ratio(const struct gate_grid *g, const struct derived_rule *r, int reference, size_t i, size_t j);

/* What the table saves a call on the random-size workload: the kept
 * search check's baseline less its table, ticks a call; 0 where the run
 * kept no checked table. */
double dispatch_gain_ticks(const struct dispatch_run *d);

/* Sets g->workload_path_ticks, each call of the size profile charged the
 * path to its length's cell, each branch at g->workload_band_ticks, where
 * that cell copies by the reference at any of the gate's distances (the
 * most of them), and g->path_paid: whether g->gain_ticks is positive and
 * at least GATE_PATH_PAYBACK times that. */
void gate_path_paid(struct gate_grid *g, const struct derived_rule *r, int reference);

/* Sets g->p_reject: Holm's threshold (grid_gate.h, holm_threshold) at
 * GATE_FAMILY_ERROR over g->family tests, the candidates the points whose
 * judged ratio (gate_point_ratio) and every timing's median (g->least)
 * exceed 1 + the effect size, below which a loss is a tie: the noise, or
 * more where the run's placement spread makes more of identical copies
 * (gate_effect_size). */
void gate_grid_holm(struct gate_grid *g, const struct derived_rule *r, int reference, double noise);

/* Whether point (i, j) of g loses: a candidate of gate_grid_holm whose
 * sign test of all its rounds Holm's procedure rejects (g->p_reject). */
int gate_point_loses(const struct gate_grid *g, const struct derived_rule *r, int reference, size_t i, size_t j,
		     double noise);

/* Rounds of repair the gate makes at most before it refuses. */
#define REPAIR_ROUNDS 4

/* One round of repair of r, judged on t: each point of g that lost beyond
 * the noise sends its cell's repair_range to the first of its
 * repair_options that has lost at no point the repair would change,
 * recorded in d (its repairs, in order); a cell repaired this round for
 * another point waits for its timing. Marks in g the points to time again: those that lost and those
 * whose copy changed. 0 with *made set where it repaired, or clear where
 * every point passed; 1 where a losing point has no option left, or d no
 * room for another repair: the gate refuses, g saying where and why. */
int gate_repair_round(const struct timings *t, struct derived_rule *r, struct gate_grid *g, struct dispatch_run *d,
		      double noise, int *made);

/* The repairs' lines (repair.c), after the grid gate's in an archive that
 * records repairs (dispatch.h, REPAIRS_VERSION):
 *   repairs N                                     0..REPAIRS_MAX
 *   repair LENGTH DISTANCE LO HI RATIO FROM TO    N of them, in the order made
 * RATIO the loss, the table over every copy forward, with three decimals;
 * FROM and TO strategy names. */
void repairs_text(struct buf *b, const struct dispatch_run *d);
int repairs_count_parse(const char *line, struct dispatch_run *d, char *why, size_t why_size);
int repair_parse(const char *line, struct grid_repair *p, char *why, size_t why_size);

#endif
