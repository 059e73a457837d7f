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
 * against its one-band table sorted, the largest of every recorded run
 * (42.84 against 18.15 on an Emerald Rapids guest,
 * evidence/sapphirerapids-2026-12-04-5bd232; 21.38 against 8.31 on a Zen 5
 * guest, 24.06 against 11.89 on a Zen 4 guest). A cell whose every copy
 * takes this many ticks over the noise or more keeps its verdict whatever
 * tree reaches it. */
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

/* The grid gate's points (common/bench_grid.h) up to the probe's longest
 * length: each point's ratio of the table to every copy forward as last
 * timed; the copies that lost at it, a bit each, never proposed again to
 * a cell that holds it; and, after a round, the points to time again. */
struct gate_grid {
	size_t n_lengths;
	double ratio[BENCH_GRID_LENGTHS][BENCH_GRID_DISTANCES];
	/* In how many of its rounds the table was the slower, of how many. */
	int slower[BENCH_GRID_LENGTHS][BENCH_GRID_DISTANCES];
	int rounds[BENCH_GRID_LENGTHS][BENCH_GRID_DISTANCES];
	/* Every copy forward's ticks a call there, the median of its rounds. */
	double baseline_ticks[BENCH_GRID_LENGTHS][BENCH_GRID_DISTANCES];
	unsigned int lost[BENCH_GRID_LENGTHS][BENCH_GRID_DISTANCES];
	int retime[BENCH_GRID_LENGTHS][BENCH_GRID_DISTANCES];
	/* Where a round stopped with no repair to make: the point (indices
	 * into the grid), its cell's copy, and why. */
	int stuck_length, stuck_distance, stuck_from;
	char stuck_why[256];
};

/* What a tree costs a call at a point of the grid gate, at most, in ticks
 * a branch: every call of a point takes one path, so each of its
 * branches predicts, and a conditional jump that predicts retires in a
 * cycle (recorded runs' trees measured 0.15 to 0.45 ticks a compare on a
 * sorted stream, model_costs_of: evidence/zen5-2026-12-06-08a427 and
 * zen5-2026-12-07-61c48f). One more for the jump to the copy. */
#define GATE_BRANCH_TICKS 1.0

/* The ratio point (i, j) of g is judged by: its median ratio, but where r
 * copies there by the reference (timings_reference: every copy forward's
 * own copy), at most 1 + what r's tree costs a call there (its branches
 * and the jump to the copy, GATE_BRANCH_TICKS each; TREE_TICKS_MAX where
 * the tree cannot be walked) over every copy forward's ticks there. Such
 * a cell differs from every copy forward only by the tree in front of it,
 * so a larger ratio is the machine's, not the table's: on a Zen 5 guest
 * strategy libc, a jump to the C library's memmove, timed 1.095x that
 * memmove at 65536 bytes, d = 0, where it takes some 1240 ticks
 * (evidence/zen5-2026-12-06-8c5629), and 1.066x at 16384 bytes, d = 32,
 * of some 500 (docs/notebook/search-2026-12.md); such spreads come and go
 * with the moment (docs/notebook/library-grid-2026-12.md). */
double gate_point_ratio(const struct gate_grid *g, const struct derived_rule *r, int reference, size_t i, size_t j);

/* Whether point (i, j) of g loses beyond the noise: grid_gate_loses on
 * gate_point_ratio. */
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
