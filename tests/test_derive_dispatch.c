/* The dispatch's cost as the derivation reads it (derive/dispatch.c): the
 * band cost from the workload's timings, the candidate the probe keeps,
 * and the archive's lines of them read back. */
#include "test_derive.h"

#include "dispatch.h"
#include "../common/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct dispatch_run timed(double base_random, double base_sorted, const double random[3],
				 const double sorted[3])
{
	struct dispatch_run d = {.measured = 1, .baseline = {base_random, base_sorted}};
	for (int i = 0; i < DISPATCH_CANDIDATES; i++)
		d.candidates[i] = (struct workload_ticks){random[i], sorted[i]};
	return d;
}

static void kept(const char *what, struct dispatch_run d, double want)
{
	about(what);
	dispatch_choose(&d, 0.03);
	check(d.chosen == want, "kept %g, want %g", d.chosen, want);
}

void derive_dispatch(void)
{
	about("dispatch_band_ticks");
	/* 1, 2, 4, 8 bands at 0, 1, 3, 7 ticks over the sorted stream. */
	struct dispatch_run d = {.measured = 1, .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}}};
	check(fabs(dispatch_band_ticks(&d) - 1) < 1e-9, "band cost %.3f, want 1", dispatch_band_ticks(&d));
	struct dispatch_run falling = {.measured = 1, .tables = {{14, 10}, {13, 10}, {12, 10}, {11, 10}}};
	check(dispatch_band_ticks(&falling) == 0, "a falling cost gives %.3f, want 0", dispatch_band_ticks(&falling));
	struct derive_cost c = dispatch_cost(NULL);
	check(c.band_ticks == DERIVE_BAND_TICKS_DEFAULT && c.multiple == 1 && !c.measured,
	      "without a measurement the cost is not the default");

	/* Candidates at multiples 0, 1, 4. */
	kept("a tie keeps the measured cost", timed(20, 15, (double[]){10, 10.1, 9.9}, (double[]){9, 9, 9}), 1);
	kept("a candidate faster beyond the noise wins", timed(20, 15, (double[]){10, 12, 11}, (double[]){9, 9, 9}), 0);
	kept("a candidate slower than the baseline on the sorted control is out",
	     timed(20, 10, (double[]){15, 12, 16}, (double[]){9, 11, 9}), 0);
	kept("every candidate slower than the baseline: the baseline",
	     timed(10, 10, (double[]){12, 11, 10.5}, (double[]){9, 9, 9}), CHOSE_BASELINE);

	/* The archive's lines read back as written. */
	about("dispatch lines");
	struct dispatch_run w = timed(20.5, 15.25, (double[]){10, 11, 12}, (double[]){9, 8, 7});
	memcpy(w.tables, d.tables, sizeof w.tables);
	w.chosen = 4;
	struct buf b = {0};
	dispatch_text(&b, &w);
	struct dispatch_run r = {0};
	char why[200] = "", *save = NULL;
	int k = 0, bad = 0;
	for (char *line = strtok_r(b.data, "\n", &save); line; line = strtok_r(NULL, "\n", &save), k++)
		bad |= dispatch_parse(line, k, &r, why, sizeof why);
	check(!bad && k == DISPATCH_LINES, "%d lines, %s", k, bad ? why : "read");
	int same = r.measured == 1 && r.chosen == w.chosen && r.baseline.random == w.baseline.random &&
		   r.baseline.sorted == w.baseline.sorted;
	for (int i = 0; i < DISPATCH_TABLES; i++)
		same &= r.tables[i].random == w.tables[i].random && r.tables[i].sorted == w.tables[i].sorted;
	for (int i = 0; i < DISPATCH_CANDIDATES; i++)
		same &= r.candidates[i].random == w.candidates[i].random && r.candidates[i].sorted == w.candidates[i].sorted;
	check(same, "the lines read back differ from those written");
	check(dispatch_parse("chosen 2", DISPATCH_LINES - 1, &r, why, sizeof why) != 0 && strstr(why, "chosen 2"),
	      "'chosen 2' (no candidate's multiple) was read");
	buf_free(&b);
}
