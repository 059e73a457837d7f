/* The dispatch's cost as the derivation reads it (derive/dispatch.c): the
 * band cost from the workload's timings, the archive's lines of it and of
 * the candidates (probe versions 3 to 25) read back, and the band trials'
 * lines (7 to 25). */
#include "test_derive.h"

#include "dispatch.h"
#include "trials.h"
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

/* Probe version 7's band trials as an archive records them: the lines,
 * and the ranges the rule is derived with. */
static void band_trials(void)
{
	about("band trials");
	struct dispatch_run w = {.measured = 1, .chosen = 1, .n_trials = 2};
	w.trials[0] = (struct band_trial){{0, 64}, {20.5, 9.25}, {20.75, 9}, 1};
	w.trials[1] = (struct band_trial){{33, 240}, {20, 9}, {25, 12}, 0};
	struct derive_cost c = dispatch_cost(&w);
	check(c.n_unsplit == 1 && c.unsplit[0].lo == 0 && c.unsplit[0].hi == 64,
	      "the cost keeps %d ranges whole, want the merged one, 0..64", c.n_unsplit);

	struct buf b = {0};
	band_trials_text(&b, &w);
	struct dispatch_run r = {0};
	char why[200] = "", *save = NULL;
	char *line = strtok_r(b.data, "\n", &save);
	int bad = band_trials_count(line, &r, why, sizeof why);
	for (int k = 0; !bad && k < r.n_trials; k++)
		bad = band_trial_parse(strtok_r(NULL, "\n", &save), &r.trials[k], why, sizeof why);
	check(!bad && r.n_trials == 2 && strtok_r(NULL, "\n", &save) == NULL, "the lines: %s", bad ? why : "count");
	int same = 1;
	for (int k = 0; k < 2; k++) {
		const struct band_trial *x = &r.trials[k], *y = &w.trials[k];
		same &= x->range.lo == y->range.lo && x->range.hi == y->range.hi && x->with.random == y->with.random &&
			x->with.sorted == y->with.sorted && x->without.random == y->without.random &&
			x->without.sorted == y->without.sorted && x->merged == y->merged;
	}
	check(!bad && same, "the trials read back differ");
	buf_free(&b);
	static const char *const broken[] = {
		"trial 64 0 20.00 9.00 20.00 9.00 merged",  "trial 0 64 20.00 9.00 20.00 9.00",
		"trial 0 64 20.00 9.00 -1.00 9.00 kept",    "trial 0 64 20.00 9.00 20.00 9.00 merged extra",
		"trial -1 64 20.00 9.00 20.00 9.00 kept",   "trials 0",
	};
	for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
		struct band_trial t;
		check(band_trial_parse(broken[i], &t, why, sizeof why) != 0 && strstr(why, "expected 'trial LO HI"),
		      "'%s' was read", broken[i]);
	}
	check(band_trials_count("trials 9", &r, why, sizeof why) != 0 && strstr(why, "0..8"), "'trials 9' was read");
	check(band_trials_count("trials", &r, why, sizeof why) != 0, "'trials' with no count was read");
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

	/* The archive's lines read back as written. */
	about("dispatch lines");
	struct dispatch_run w = timed(20.5, 15.25, (double[]){10, 11, 12}, (double[]){9, 8, 7});
	memcpy(w.tables, d.tables, sizeof w.tables);
	w.chosen = 4;
	struct buf b = {0};
	dispatch_text(&b, &w, 1);
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
	band_trials();
}
