/* The grid gate (derive/grid_gate.c): its verdict, its archive line read
 * back and broken or misplaced ones refused, and, on small_win.csv, the
 * rule derive_chosen makes of a kept candidate the gate passed (the
 * candidate's table) and refused (every copy forward, the note saying
 * where it lost). */
#include "test_derive.h"

#include "chosen.h"
#include "grid_gate.h"
#include "../common/util.h"

#include <stdlib.h>
#include <string.h>

/* line read into a run that keeps a table or not; the parser's result. */
static int parse(const char *line, int keeps, struct dispatch_run *d)
{
	char why[256];
	memset(d, 0, sizeof *d);
	d->measured = 1;
	d->chosen = keeps ? candidate_multiples[1] : CHOSE_BASELINE;
	return grid_gate_parse(line, d, why, sizeof why);
}

static void verdict_and_line(void)
{
	about("grid gate: the verdict and the archive line");
	int r = GRID_GATE_ROUNDS;
	check(grid_gate_loses(1.04, 12, r, 0.03) && !grid_gate_loses(1.02, 15, r, 0.03) &&
		      !grid_gate_loses(0.5, 0, r, 0.03),
	      "a loss beyond the noise is not refused, or one within it is");
	check(!grid_gate_loses(1.30, 11, r, 0.03) && grid_gate_loses(1.30, 15, r, 0.03),
	      "a median over the noise in fewer than 12 slower rounds of 15 is refused, or one in every round is not");
	/* Three timings' rounds together: a tie gives 30 or more slower of 45
	 * with odds 0.018, 29 or more with 0.036. */
	check(grid_gate_slower_needed(15) == 12 && grid_gate_slower_needed(45) == 30 && grid_gate_slower_needed(0) == 1,
	      "the sign test needs %d of 15, %d of 45 and %d of none, not 12, 30 and 1", grid_gate_slower_needed(15),
	      grid_gate_slower_needed(45), grid_gate_slower_needed(0));
	check(grid_gate_loses(1.10, 30, 3 * r, 0.03) && !grid_gate_loses(1.10, 29, 3 * r, 0.03) &&
		      !grid_gate_loses(1.02, 45, 3 * r, 0.03),
	      "of three timings' 45 rounds, 30 slower over the noise is not a loss, or 29, or 45 within the noise, is");
	struct dispatch_run d;
	check(parse("grid_gate none", 0, &d) == 0 && !d.gate.tried, "'grid_gate none' where no table was kept is refused");
	check(parse("grid_gate none", 1, &d) != 0, "'grid_gate none' where a table was kept reads");
	check(parse("grid_gate 1.677 128 1 refused", 1, &d) == 0 && d.gate.tried && d.gate.refused &&
		      d.gate.worst == 1.677 && d.gate.length == 128 && d.gate.distance == 1,
	      "a refused gate does not read back");
	struct buf b = {0};
	grid_gate_text(&b, &d);
	check(b.data && strcmp(b.data, "grid_gate 1.677 128 1 refused\n") == 0, "a refused gate is written as '%s'",
	      b.data ? b.data : "");
	buf_free(&b);
	check(parse("grid_gate 1.010 256 63 passed", 1, &d) == 0 && d.gate.tried && !d.gate.refused,
	      "a passed gate does not read back");
	check(parse("grid_gate 1.010 256 63 passed", 0, &d) != 0, "a gate where no table was kept reads");
	static const char *const broken[] = {"grid_gate", "grid_gate 1.010 256 passed", "grid_gate 1.010 256 63 maybe",
					     "grid_gate 1.010 256 63 passed extra", "grid_gate -1 256 63 passed",
					     "grid gate 1.010 256 63 passed"};
	for (size_t i = 0; i < sizeof broken / sizeof *broken; i++)
		check(parse(broken[i], 1, &d) != 0 && !d.gate.tried, "'%s' reads", broken[i]);
}

static void rule_of_the_gate(void)
{
	about("grid gate: the rule derive_chosen makes");
	struct timings t = {0};
	struct derived_rule *passed = malloc(sizeof *passed), *refused = malloc(sizeof *refused);
	struct dispatch_run d = {.measured = 1, .chosen = 1, .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}},
				 .baseline = {15, 8}};
	if (!passed || !refused || timings_read_csv(&t, "tests/fixtures/small_win.csv")) {
		check(0, "small_win.csv does not read");
		goto out;
	}
	d.gate = (struct grid_gate){1, 1.01, 256, 63, 0};
	check(derive_chosen(&t, &d, passed) == 0 && passed->n_bands > 1,
	      "a kept candidate the gate passed is not its table (%d bands)", passed->n_bands);
	d.gate = (struct grid_gate){1, 1.677, 128, 1, 1};
	check(derive_chosen(&t, &d, refused) == 0 && refused->n_bands == 1 &&
		      cells_of(refused, BASELINE_STRATEGY) == N_DISTANCE_CLASSES,
	      "a table the gate refused is not every copy forward (%d bands)", refused->n_bands);
	check(strstr(refused->note, "grid gate") && strstr(refused->note, "1.677x at 128 bytes, d = 1"),
	      "the note does not say where the table lost: %.300s", refused->note);
	d.chosen = CHOSE_BASELINE, d.shaped = (struct shaped_trial){1, 1, {12, 6}, {15, 8}, 1};
	check(derive_chosen(&t, &d, refused) == 0 && refused->n_bands == 1,
	      "a shaped table the gate refused is not every copy forward");
out:
	free(passed), free(refused);
	timings_free(&t);
}

void derive_grid_gate(void)
{
	verdict_and_line();
	rule_of_the_gate();
}
