/* The dispatch's cost as the derivation reads it (derive/dispatch.c): the
 * band cost from the workload's timings, the candidate the probe keeps,
 * the archive's lines of them read back, and the band trials' loop with
 * its timing forged. */
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

/* Probe version 7's band trials: the verdict, the lines, and the ranges
 * the rule is derived with. */
static void band_trials(void)
{
	about("band trials");
	struct band_trial even = {{0, 64}, {20, 9}, {20.3, 9.1}, 0};
	check(band_trial_merges(&even, 0.03), "a split within the noise on both streams is kept");
	/* Probe version 19: the workload decides, not the sorted control. */
	struct band_trial sorted_only = {{0, 64}, {20, 9}, {20, 9.5}, 0};
	check(band_trial_merges(&sorted_only, 0.03),
	      "a split faster beyond the noise on the sorted control alone is kept (the workload ties)");
	struct band_trial sorted_against = {{0, 48}, {15.36, 8.41}, {14.26, 11.96}, 0};
	check(band_trial_merges(&sorted_against, 0.03),
	      "a split slower on random sizes and faster sorted (a Zen 4 guest's kernel run) is kept");
	struct band_trial random_only = {{0, 64}, {20, 9}, {21, 8}, 0};
	check(!band_trial_merges(&random_only, 0.03), "a split faster beyond the noise on random sizes is merged");
	struct band_trial random_edge = {{0, 64}, {20, 9}, {20.5, 9}, 0};
	check(band_trial_merges(&random_edge, 0.03), "a split faster on random sizes within the noise is kept");

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

/* A band trial's timing, forged: the split faster beyond the noise, or
 * not at all; fails at call fail_at (from 1). Counts the calls and the
 * pairs that are not a table with the split and one with its range whole,
 * both whole in every range an earlier trial of d merged. */
struct forged_timing {
	const struct dispatch_run *d;
	int split_wins, fail_at, calls, bad_pairs;
};

/* Whether r has a band that starts inside range (past its first length). */
static int splits_in(const struct derived_rule *r, struct length_range range)
{
	int split = 0;
	for (int i = 1; i < r->n_bands; i++)
		split |= r->bands[i].lo > range.lo && r->bands[i].lo <= range.hi;
	return split;
}

static int forged_time(void *ctx, const struct derived_rule rules[2], struct band_trial *trial)
{
	struct forged_timing *x = ctx;
	int bad = !splits_in(&rules[0], trial->range) || splits_in(&rules[1], trial->range);
	for (const struct band_trial *earlier = x->d->trials; earlier < trial; earlier++)
		bad |= earlier->merged && (splits_in(&rules[0], earlier->range) || splits_in(&rules[1], earlier->range));
	x->bad_pairs += bad;
	if (++x->calls == x->fail_at)
		return -1;
	trial->with = (struct workload_ticks){10, 5};
	trial->without = x->split_wins ? (struct workload_ticks){12, 6} : trial->with;
	return 0;
}

/* The band trials' loop (band_trials_run) on a recorded table, timed by
 * forged_time: which splits it tries, the ranges, and what it keeps. */
static void band_trial_loop(void)
{
	about("the band trials' loop on noise_bands.csv");
	const unsigned int longest = 240;
	struct table t = {0};
	struct dispatch_run d = {.measured = 1, .chosen = 0, .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}}};
	struct derived_rule *r = malloc(sizeof *r);
	struct derive_cost cost = dispatch_cost(&d);
	if (!r || table_read_csv(&t, "tests/fixtures/noise_bands.csv") || derive_rule(&t, &cost, r)) {
		check(0, "noise_bands.csv does not derive");
		free(r);
		table_free(&t);
		return;
	}
	int splits = 0;
	for (int i = 1; i < r->n_bands && r->bands[i].lo <= longest; i++)
		splits++;
	check(splits >= 2, "%d splits at %u bytes or less: the fixture no longer tests the loop", splits, longest);

	/* Every split faster: each is tried once, lowest first, none merged. */
	struct forged_timing wins = {.d = &d, .split_wins = 1};
	int rc = band_trials_run(&t, &d, 0.03, longest, forged_time, &wins);
	int want = splits < DISPATCH_TRIALS_MAX ? splits : DISPATCH_TRIALS_MAX, ranges = rc == 0;
	for (int k = 1; rc == 0 && k <= want && k < d.n_trials + 1; k++) {
		const struct band_trial *x = &d.trials[k - 1];
		unsigned int hi = r->bands[k].hi < longest ? r->bands[k].hi : longest;
		ranges &= x->range.lo == r->bands[k - 1].lo && x->range.hi == hi && !x->merged;
	}
	check(rc == 0 && d.n_trials == want && ranges && wins.calls == want,
	      "splits that pay: %d trials (%d timed), want %d, each the band before the split to the one after", d.n_trials,
	      wins.calls, want);
	check(dispatch_cost(&d).n_unsplit == 0, "splits that pay leave %d ranges whole", dispatch_cost(&d).n_unsplit);
	check(wins.bad_pairs == 0, "%d pairs timed were not a table with the split and one without", wins.bad_pairs);

	/* No split faster: each trial merges, the next starts from the merged
	 * table, and the rule derived with them splits nowhere they cover. */
	struct forged_timing ties = {.d = &d};
	rc = band_trials_run(&t, &d, 0.03, longest, forged_time, &ties);
	int merged = rc == 0 && d.n_trials > 0 && d.trials[0].range.lo == 0;
	for (int i = 0; i < d.n_trials; i++)
		merged &= d.trials[i].merged;
	check(merged && ties.bad_pairs == 0, "splits that do not pay: %d trials, not all merged from 0 bytes, or %d bad pairs",
	      d.n_trials, ties.bad_pairs);
	cost = dispatch_cost(&d);
	if (merged && derive_rule(&t, &cost, r) == 0) {
		int open = 0;
		for (int i = 1; i < r->n_bands && r->bands[i].lo <= longest; i++) {
			int covered = 0;
			for (int k = 0; k < d.n_trials; k++)
				covered |= d.trials[k].range.lo < r->bands[i].lo && r->bands[i].lo <= d.trials[k].range.hi;
			open += !covered;
		}
		check(open == 0 || d.n_trials == DISPATCH_TRIALS_MAX,
		      "%d splits at %u bytes or less left untried after %d trials", open, longest, d.n_trials);
		check(r->n_bands < 2 || r->bands[1].lo > d.trials[0].range.hi,
		      "the rule splits at %u, inside %u..%u, which was kept whole", r->bands[1].lo, d.trials[0].range.lo,
		      d.trials[0].range.hi);
	}

	/* A failed timing fails the loop; a baseline tries nothing. */
	struct forged_timing fails = {.d = &d, .fail_at = 2};
	check(band_trials_run(&t, &d, 0.03, longest, forged_time, &fails) != 0 && fails.calls == 2,
	      "a failed timing did not fail the loop");
	struct forged_timing none = {.d = &d};
	d.chosen = CHOSE_BASELINE;
	check(band_trials_run(&t, &d, 0.03, longest, forged_time, &none) == 0 && d.n_trials == 0 && none.calls == 0,
	      "the baseline was tried: %d trials", d.n_trials);
	free(r);
	table_free(&t);
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
	kept("a candidate within the noise of the baseline on random sizes: the baseline (ties go to it)",
	     timed(18.34, 8.55, (double[]){20.06, 19.45, 18.79}, (double[]){7.92, 7.80, 7.87}), CHOSE_BASELINE);
	kept("...and one just beyond the noise is kept",
	     timed(18.34, 8.55, (double[]){20.06, 19.45, 17.7}, (double[]){7.92, 7.80, 7.87}), 4);

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
	band_trial_loop();
}
