/* Repair instead of refusal (derive/repair.c): the gate's round of repair
 * on forged ratios over small_win.csv's table, the rule derive_chosen
 * replays from the repairs an archive records, their archive lines, and a
 * run that timed no compiled tree keeping only its long cells. */
#include "test_derive.h"

#include "chosen.h"
#include "repair.h"
#include "model.h"
#include "../common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The grid's index of length n and distance d; asserted present. */
static size_t length_index(unsigned int n)
{
	size_t i = 0;
	while (i + 1 < BENCH_GRID_LENGTHS && bench_grid_lengths[i] != n)
		i++;
	return i;
}

static size_t distance_index(unsigned int d)
{
	size_t j = 0;
	while (j + 1 < BENCH_GRID_DISTANCES && bench_grid_distances[j] != d)
		j++;
	return j;
}

/* Every point passed, but one that lost by ratio. */
static void one_loss(struct gate_grid *g, unsigned int n, unsigned int d, double ratio)
{
	g->n_lengths = BENCH_GRID_LENGTHS;
	for (size_t i = 0; i < BENCH_GRID_LENGTHS; i++)
		g->lengths[i] = (unsigned int)bench_grid_lengths[i];
	for (size_t i = 0; i < BENCH_GRID_LENGTHS; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			g->ratio[i][j] = 1.0, g->slower[i][j] = GRID_GATE_ROUNDS / 2, g->rounds[i][j] = GRID_GATE_ROUNDS;
	g->ratio[length_index(n)][distance_index(d)] = ratio;
	g->slower[length_index(n)][distance_index(d)] = ratio > 1 ? GRID_GATE_ROUNDS : 0;
}

/* The kept candidate of a run over small_win.csv, as the probe's gate
 * starts from it. */
static struct dispatch_run kept_run(void)
{
	return (struct dispatch_run){.measured = 1, .chosen = 1, .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}},
				     .baseline = {15, 8}, .records_repairs = 1};
}

static void round_of_repair(const struct timings *t)
{
	about("repair: the gate's round, on forged ratios");
	struct dispatch_run d = kept_run();
	struct derived_rule *r = malloc(sizeof *r), *start = malloc(sizeof *start);
	struct gate_grid *g = calloc(1, sizeof *g);
	int made = 0;
	if (!r || !start || !g || derive_chosen(t, &d, start)) {
		check(0, "small_win.csv's kept table does not derive");
		goto out;
	}
	*r = *start;
	one_loss(g, 16384, 65, 1.24);
	check(gate_repair_round(t, r, g, &d, 0.03, &made) == 0 && made && d.n_repairs == 1,
	      "a loss at one point is not repaired (%d repairs)", d.n_repairs);
	const struct grid_repair *p = &d.repairs[0];
	check(p->length == 16384 && p->distance == 65 && p->from == F && p->to == FA && p->lo == 4097 &&
		      p->hi == 65535,
	      "the repair is not 4097..65535 bytes from forward to forward_aligned: %u..%u, %s to %s", p->lo, p->hi,
	      strategy_name[p->from], strategy_name[p->to]);
	check(rule_choice(r, 16384, 65) == FA && rule_choice(r, 4097, 65) == FA && rule_choice(r, 65535, 65) == FA,
	      "the repaired lengths do not copy by forward_aligned");
	check(rule_choice(r, 4096, 65) == rule_choice(start, 4096, 65) &&
		      rule_choice(r, 65536, 65) == rule_choice(start, 65536, 65),
	      "lengths outside the repair changed");
	check(g->retime[length_index(16384)][distance_index(65)] && g->retime[length_index(16384)][distance_index(64)] &&
		      !g->retime[length_index(1024)][distance_index(65)],
	      "the points to time again are not the losing one and those whose copy changed");
	/* Timed again, it passes: nothing more to repair. */
	one_loss(g, 16384, 65, 1.0);
	check(gate_repair_round(t, r, g, &d, 0.03, &made) == 0 && !made && d.n_repairs == 1,
	      "a repaired table that passes is repaired again");
	/* Timed again, it still loses, and no copy is left that has not lost
	 * there and serves those lengths without harm: the gate refuses. */
	one_loss(g, 16384, 65, 1.30);
	check(gate_repair_round(t, r, g, &d, 0.03, &made) == 1, "a loss with no option left does not refuse");
	check(bench_grid_lengths[g->stuck_length] == 16384 && bench_grid_distances[g->stuck_distance] == 65 &&
		      g->stuck_from == FA && strstr(g->stuck_why, "lost at it") != NULL,
	      "the refusal does not say where and why: %zu bytes, d = %u, %s: '%s'", bench_grid_lengths[g->stuck_length],
	      bench_grid_distances[g->stuck_distance], strategy_name[g->stuck_from], g->stuck_why);
out:
	free(r), free(start), free(g);
}

/* A copy that lost at one point of a cell is not offered to the cell
 * again: forward loses at 16384 bytes, d = 65, and the cell takes
 * forward_aligned, which loses at d = 64, in the same cell; forward is
 * not offered back, and with no other copy left the gate refuses. */
static void lost_in_the_cell(const struct timings *t)
{
	about("repair: a copy that lost in a cell is not offered to it again");
	struct dispatch_run d = kept_run();
	struct derived_rule *r = malloc(sizeof *r);
	struct gate_grid *g = calloc(1, sizeof *g);
	int made = 0;
	if (!r || !g || derive_chosen(t, &d, r)) {
		check(0, "small_win.csv's kept table does not derive");
		goto out;
	}
	one_loss(g, 16384, 65, 1.24);
	check(gate_repair_round(t, r, g, &d, 0.03, &made) == 0 && made && d.n_repairs == 1 && d.repairs[0].to == FA,
	      "forward's loss at 16384 bytes, d = 65, is not repaired to forward_aligned");
	one_loss(g, 16384, 64, 1.24);
	int refused = gate_repair_round(t, r, g, &d, 0.03, &made) == 1;
	check(refused && d.n_repairs == 1, "forward_aligned's loss at d = 64 sends the cell back to %s, which lost at "
					   "d = 65",
	      strategy_name[rule_choice(r, 16384, 64)]);
out:
	free(r), free(g);
}

/* A table with room for one band more: small_win.csv's kept table (small
 * to 32 bytes, forward beyond) with its first band cut into single
 * lengths until MAX_BANDS - 1. A loss at 16384 bytes, d = 65, whose
 * repair would split its band twice, splits it once: the repair reaches
 * the band's end above (4097 bytes on, unbounded), where it would have
 * been refused for want of room. */
static void one_band_of_room(const struct timings *t)
{
	about("repair: a table with room for one band splits its cell once");
	struct dispatch_run d = kept_run();
	struct derived_rule *r = malloc(sizeof *r), *start = malloc(sizeof *start);
	struct gate_grid *g = calloc(1, sizeof *g);
	int made = 0;
	if (!r || !start || !g || derive_chosen(t, &d, r)) {
		check(0, "small_win.csv's kept table does not derive");
		goto out;
	}
	while (r->n_bands < MAX_BANDS - 1) {
		memmove(&r->bands[1], &r->bands[0], (size_t)r->n_bands * sizeof *r->bands);
		r->bands[0].hi = r->bands[0].lo;
		r->bands[1].lo = r->bands[0].lo + 1;
		r->n_bands++;
	}
	*start = *r;
	one_loss(g, 16384, 65, 1.24);
	check(gate_repair_round(t, r, g, &d, 0.03, &made) == 0 && made && d.n_repairs == 1,
	      "a loss in a table with room for one band is not repaired (%d repairs): %s", d.n_repairs, g->stuck_why);
	const struct grid_repair *p = &d.repairs[0];
	check(p->lo == 4097 && p->hi == BAND_UNBOUNDED && p->from == F && p->to == FA,
	      "the repair is %u..%u from %s to %s, not 4097.. from forward to forward_aligned", p->lo, p->hi,
	      strategy_name[p->from], strategy_name[p->to]);
	check(rule_choice(r, 16384, 65) == FA && rule_choice(r, 1 << 20, 65) == FA &&
		      rule_choice(r, 4096, 65) == rule_choice(start, 4096, 65) &&
		      rule_choice(r, 8, 65) == rule_choice(start, 8, 65),
	      "the repaired table does not copy 4097 bytes on by forward_aligned and the rest as before");
out:
	free(r), free(start), free(g);
}

/* Every copy forward took ticks a call at every point of g. */
static void baseline_took(struct gate_grid *g, double ticks)
{
	for (size_t i = 0; i < BENCH_GRID_LENGTHS; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			g->baseline_ticks[i][j] = ticks;
}

/* A cell that copies by the reference loses no more than its tree costs
 * at the point, every branch predicted (gate_point_ratio): 1.095x where
 * the C library's memmove takes 1240 ticks is judged 1 + (its branches +
 * 1) / 1240 and passes; 1.10x where it takes 60 is judged by what it
 * timed, more than its tree's bound, a loss; and a cell of another copy is
 * judged by what it timed. r: small_win.csv with libc's table, libc from
 * 4097 bytes. */
static void tree_bound(const struct timings *t, const struct derived_rule *r, struct gate_grid *g)
{
	struct dispatch_run d = kept_run();
	struct derived_rule again = *r;
	int made = 1;
	size_t i = length_index(65536), j = distance_index(0);
	int branches = rule_branches_at(r, 65536, 0);
	one_loss(g, 65536, 0, 1.095);
	baseline_took(g, 1240);
	check(rule_choice(r, 65536, 0) == STRATEGY_LIBC && branches > 0, "65536 bytes, d = 0, copies by %s, not libc, "
	      "behind %d branches", strategy_name[rule_choice(r, 65536, 0)], branches);
	check(fabs(gate_point_ratio(g, r, STRATEGY_LIBC, i, j) - (1 + (branches + 1) * GATE_BRANCH_TICKS / 1240)) < 1e-9 &&
		      !gate_point_loses(g, r, STRATEGY_LIBC, i, j, 0.03),
	      "a libc cell timed 1.095x at 1240 ticks is judged %.4fx, not 1 + %d / 1240",
	      gate_point_ratio(g, r, STRATEGY_LIBC, i, j), branches + 1);
	check(gate_repair_round(t, &again, g, &d, 0.03, &made) == 0 && !made && d.n_repairs == 0,
	      "a libc cell slower than its tree can make it is repaired or refuses (%d repairs)", d.n_repairs);
	one_loss(g, 16384, 65, 1.10);
	baseline_took(g, 60);
	gate_grid_holm(g, r, STRATEGY_LIBC, 0.03);
	check(gate_point_loses(g, r, STRATEGY_LIBC, length_index(16384), distance_index(65), 0.03),
	      "a libc cell timed 1.10x at 60 ticks, more than the noise within its tree's bound, does not lose");
	one_loss(g, 64, 0, 1.095);
	baseline_took(g, 1240);
	check(rule_choice(r, 64, 0) != STRATEGY_LIBC &&
		      gate_point_ratio(g, r, STRATEGY_LIBC, length_index(64), 0) == 1.095,
	      "a cell of %s is not judged by what it timed", strategy_name[rule_choice(r, 64, 0)]);
}

/* A user run, which times strategy libc (the C library's memmove): there
 * the repair's reference is libc, not every copy forward. small_win.csv
 * with libc rows, 0.95x forward's time from 4097 bytes, 1.10x below: its
 * long cells copy by libc, and where one loses, no copy of small_win's
 * is left that does not lose to libc, so the gate refuses. Where the
 * reference were forward, forward would be an option. */
static void reference_libc(const struct timings *small_win)
{
	about("repair: a run that times libc judges the options against it");
	struct timings t = {0};
	for (size_t i = 0; i < small_win->n; i++) {
		struct row row = small_win->rows[i];
		timings_add(&t, row);
		if (row.strategy == F)
			row.strategy = STRATEGY_LIBC, row.ticks *= row.length > 4096 ? 0.95 : 1.10, timings_add(&t, row);
	}
	struct dispatch_run d = kept_run();
	struct derived_rule *r = malloc(sizeof *r);
	struct gate_grid *g = calloc(1, sizeof *g);
	int made = 0;
	check(timings_reference(&t) == STRATEGY_LIBC && timings_reference(small_win) == F,
	      "the reference of a run with libc is not libc, or of one without it not forward");
	if (!r || !g || derive_chosen(&t, &d, r)) {
		check(0, "small_win.csv with libc does not derive");
		goto out;
	}
	check(rule_choice(r, 16384, 65) == STRATEGY_LIBC, "16384 bytes, d = 65, copies by %s, not libc",
	      strategy_name[rule_choice(r, 16384, 65)]);
	int options[N_COPY_STRATEGIES], k = repair_options(&t, r, 16384, 65, options, N_COPY_STRATEGIES);
	check(k == 0, "a libc cell has %d options that do not lose to libc (the first %s)", k,
	      k ? strategy_name[options[0]] : "");
	one_loss(g, 16384, 65, 1.10);
	check(gate_repair_round(&t, r, g, &d, 0.03, &made) == 1 && d.n_repairs == 0,
	      "a libc cell that loses, with no copy as fast as libc, is repaired (%d repairs)", d.n_repairs);
	tree_bound(&t, r, g);
out:
	free(r), free(g);
	timings_free(&t);
}

static void replayed(const struct timings *t)
{
	about("repair: the rule derive_chosen replays");
	struct dispatch_run d = kept_run();
	struct derived_rule *r = malloc(sizeof *r), *unrepaired = malloc(sizeof *unrepaired);
	if (!r || !unrepaired || derive_chosen(t, &d, unrepaired)) {
		check(0, "small_win.csv's kept table does not derive");
		goto out;
	}
	d.gate = (struct grid_gate){1, 1.012, 256, 63, 0};
	d.n_repairs = 1;
	d.repairs[0] = (struct grid_repair){16384, 65, 4097, 65535, 1.24, F, FA};
	check(derive_chosen(t, &d, r) == 0 && r->n_bands > unrepaired->n_bands && rule_choice(r, 16384, 65) == FA &&
		      cells_of(r, SMALL) == cells_of(unrepaired, SMALL),
	      "a table the gate repaired and passed is not the kept table with that cell repaired (%d bands)",
	      r->n_bands);
	check(strstr(r->note, "repaired 1 cell") && strstr(r->note, "4097..65535 bytes") &&
		      strstr(r->note, "1.240x at 16384 bytes, d = 65"),
	      "the note does not name the repair: %.400s", r->note);
	d.gate.refused = 1;
	check(derive_chosen(t, &d, r) == 0 && r->n_bands == 1 && cells_of(r, F) == N_DISTANCE_CLASSES &&
		      strstr(r->note, "after every repair"),
	      "a table still refused after repair is not every copy forward");
	d.gate.refused = 0;
	d.repairs[0].from = DOWN;
	check(derive_chosen(t, &d, r) != 0 && strstr(r->note, "contradicts"),
	      "a repair of a copy the cell does not make is not refused");
	/* An archive that refused without repairing records only its worst
	 * point: the refusal stands. */
	d = kept_run();
	d.records_repairs = 0;
	d.gate = (struct grid_gate){1, 1.239, 16384, 65, 1};
	check(derive_chosen(t, &d, r) == 0 && r->n_bands == 1 && strstr(r->note, "did not repair"),
	      "a refusal recorded without repairs is not every copy forward");
out:
	free(r), free(unrepaired);
}

static int parse_repairs(const char *count, const char *line, struct dispatch_run *d)
{
	char why[256];
	*d = kept_run();
	d->gate.tried = 1;
	if (repairs_count_parse(count, d, why, sizeof why))
		return -1;
	return line ? repair_parse(line, &d->repairs[0], why, sizeof why) : 0;
}

static void lines(void)
{
	about("repair: the archive lines");
	struct dispatch_run d;
	check(parse_repairs("repairs 1", "repair 16384 65 4097 65535 1.239 forward forward_aligned", &d) == 0 &&
		      d.n_repairs == 1 && d.repairs[0].lo == 4097 && d.repairs[0].to == FA,
	      "a repair line does not read back");
	struct buf b = {0};
	repairs_text(&b, &d);
	check(b.data && strcmp(b.data, "repairs 1\nrepair 16384 65 4097 65535 1.239 forward forward_aligned\n") == 0,
	      "the repairs are written as '%s'", b.data ? b.data : "");
	buf_free(&b);
	static const char *const broken[] = {"repair 16384 65 4097 65535 1.239 forward",
					     "repair 16384 65 20000 65535 1.239 forward forward_aligned",
					     "repair 16384 4096 4097 65535 1.239 forward forward_aligned",
					     "repair 16384 65 4097 65535 1.239 forward forward",
					     "repair 16384 65 4097 65535 1.239 forward sideways",
					     "repair 16384 65 4097 65535 -1 forward forward_aligned",
					     "repair 16384 65 4097 65535 1.239 forward forward_aligned extra"};
	for (size_t i = 0; i < sizeof broken / sizeof *broken; i++)
		check(parse_repairs("repairs 1", broken[i], &d) != 0, "'%s' reads", broken[i]);
	char over[32];
	snprintf(over, sizeof over, "repairs %d", REPAIRS_MAX + 1);
	check(parse_repairs(over, NULL, &d) != 0 && parse_repairs("repairs -1", NULL, &d) != 0 &&
		      parse_repairs("repairs", NULL, &d) != 0,
	      "a count out of 0..%d reads", REPAIRS_MAX);
}

static void unchecked(void)
{
	about("repair: a run that timed no compiled tree keeps its long cells");
	struct timings t = {0};
	struct dispatch_run d = {.unchecked = 1};
	struct derived_rule *r = malloc(sizeof *r), *kept = malloc(sizeof *kept);
	if (!r || !kept || timings_read_csv(&t, "tests/fixtures/zen2_like.csv") || derive_chosen(&t, NULL, kept)) {
		check(0, "zen2_like.csv does not read or derive");
		goto out;
	}
	unsigned int from = unchecked_supported_from(&t, kept->noise);
	check(from > 64 && from < BAND_UNBOUNDED, "the supported lengths start at %u", from);
	check(derive_chosen(&t, &d, r) == 0, "the unchecked run does not derive: %.300s", r->note);
	check(rule_choice(r, 64, 16) == F && rule_choice(r, from - 1, 16) == F,
	      "a cell shorter than %u bytes keeps its own copy", from);
	check(rule_choice(r, from, 16) == rule_choice(kept, from, 16) && rule_choice(r, from, 16) != F &&
		      rule_choice(r, 1048576, 16) == DOWN,
	      "the long cells of the stall lost their copy (%s at %u)", strategy_name[rule_choice(r, from, 16)], from);
	check(strstr(r->note, "timed no compiled tree") != NULL, "the note does not say what was dropped: %.300s", r->note);
	/* The control: the same table from a checked run keeps its short cells. */
	check(rule_choice(kept, 64, 16) == DOWN, "the control's 64 bytes at d = 16 does not copy down");
out:
	free(r), free(kept);
	timings_free(&t);
}

void derive_repair(void)
{
	struct timings t = {0};
	if (timings_read_csv(&t, "tests/fixtures/small_win.csv")) {
		check(0, "small_win.csv does not read");
		return;
	}
	round_of_repair(&t);
	one_band_of_room(&t);
	lost_in_the_cell(&t);
	reference_libc(&t);
	replayed(&t);
	timings_free(&t);
	lines();
	unchecked();
}
