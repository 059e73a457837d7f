/* The shaped trial (derive/shaped_trial.c): where it starts, its verdict,
 * its archive line, and, on small_win.csv with small_flat's points, the
 * steps of a probe whose every candidate lost: both trials on the fastest
 * candidate, then the table they made against every copy forward, each
 * timing forged, and the rule derive_chosen makes of that. */
#include "test_derive.h"

#include "dispatch.h"
#include "../common/util.h"

#include <stdlib.h>
#include <string.h>

static void start_and_verdict(void)
{
	about("shaped trial: where it starts, and the verdict");
	double last_multiple = candidate_multiples[DISPATCH_CANDIDATES - 1];
	struct dispatch_run d = {.measured = 1, .chosen = CHOSE_BASELINE, .baseline = {15.8, 7.6}};
	for (int i = 0; i < DISPATCH_CANDIDATES; i++)
		d.candidates[i] = (struct workload_ticks){18 - i, 7};
	shaped_trial_start(&d);
	check(d.shaped.started && d.shaped.from == last_multiple && dispatch_start(&d) == last_multiple,
	      "the trials start at %g, not at the candidate fastest on random sizes (%g)", d.shaped.from, last_multiple);
	d.candidates[0].random = d.candidates[DISPATCH_CANDIDATES - 1].random;
	shaped_trial_start(&d);
	check(d.shaped.started && d.shaped.from == candidate_multiples[0], "a tie starts at %g, not at the lower multiple",
	      d.shaped.from);
	d.chosen = candidate_multiples[1];
	shaped_trial_start(&d);
	check(!d.shaped.started && dispatch_start(&d) == candidate_multiples[1], "a kept candidate started a shaped trial");

	struct shaped_trial wins = {1, 4, {12.6, 6.8}, {15.8, 7.6}, 0};
	check(shaped_trial_keeps(&wins, 0.03), "faster on both streams is not kept");
	struct shaped_trial tie = {1, 4, {15.5, 6.8}, {15.8, 7.6}, 0};
	check(!shaped_trial_keeps(&tie, 0.03), "a gain within the noise on random sizes is kept");
	struct shaped_trial sorted = {1, 4, {12.6, 8.0}, {15.8, 7.6}, 0};
	check(!shaped_trial_keeps(&sorted, 0.03), "slower than every copy forward beyond the noise, sorted, is kept");
}

/* line read into a run that chose chosen; the parser's result. */
static int parse_into(const char *line, double chosen, struct dispatch_run *r, char *why, size_t size)
{
	memset(r, 0, sizeof *r);
	r->measured = 1, r->chosen = chosen;
	return shaped_trial_parse(line, r, why, size);
}

static void lines(void)
{
	about("shaped trial: the archive line");
	struct dispatch_run w = {.measured = 1, .chosen = CHOSE_BASELINE, .shaped = {1, 4, {12.64, 6.84}, {15.83, 7.6}, 1}},
			    r;
	char why[300] = "";
	for (int kept = 1; kept >= 0; kept--) {
		w.shaped.kept = kept;
		struct buf b = {0};
		shaped_trial_text(&b, &w);
		char *nl = strchr(b.data, '\n');
		check(nl && !nl[1], "one line: '%s'", b.data);
		if (nl)
			*nl = '\0';
		int bad = parse_into(b.data, CHOSE_BASELINE, &r, why, sizeof why);
		const struct shaped_trial *x = &r.shaped, *y = &w.shaped;
		check(!bad && x->started && x->from == y->from && x->shaped.random == y->shaped.random &&
			      x->shaped.sorted == y->shaped.sorted && x->baseline.random == y->baseline.random &&
			      x->baseline.sorted == y->baseline.sorted && x->kept == y->kept,
		      "'%s' read back otherwise (%s)", b.data, bad ? why : "read");
		buf_free(&b);
	}
	check(parse_into("shaped none", 1, &r, why, sizeof why) == 0 && !r.shaped.started,
	      "'shaped none' after a kept candidate was refused: %s", why);
	check(parse_into("shaped none", CHOSE_BASELINE, &r, why, sizeof why) != 0 && strstr(why, "'shaped none' where"),
	      "'shaped none' where the baseline was chosen was read");
	check(parse_into("shaped 4 12.64 6.84 15.83 7.60 kept", 1, &r, why, sizeof why) != 0 &&
		      strstr(why, "only a run that kept the baseline") && !r.shaped.started,
	      "a shaped trial after a kept candidate was read");
	static const char *const broken[] = {
		"shaped", "shaped 3 12.64 6.84 15.83 7.60 kept", "shaped 4 12.64 6.84 15.83 kept",
		"shaped 4 12.64 6.84 15.83 7.60 kept x", "shaped 4 -1 6.84 15.83 7.60 not", "shaped none x",
		"shaped_trial 4 12.64 6.84 15.83 7.60 kept", "shaped 40 12.64 6.84 15.83 7.60 kept",
	};
	for (size_t i = 0; i < sizeof broken / sizeof *broken; i++)
		check(parse_into(broken[i], CHOSE_BASELINE, &r, why, sizeof why) != 0 && strstr(why, "expected 'shaped none'") &&
			      !r.shaped.started,
		      "'%s' was read", broken[i]);
}

static int same_bands(const struct derived_rule *a, const struct derived_rule *b)
{
	int same = a->n_bands == b->n_bands;
	for (int i = 0; same && i < a->n_bands; i++)
		same = a->bands[i].lo == b->bands[i].lo && a->bands[i].hi == b->bands[i].hi &&
		       memcmp(a->bands[i].strategy, b->bands[i].strategy, sizeof a->bands[i].strategy) == 0;
	return same;
}

/* The forged timings: each counts its calls and the tables it was given
 * that are not the ones it should time. */
struct forged {
	const struct derived_rule *want; /* the first band trial's table with the split; the shaped table */
	int calls, bad, fail, wins;
};

static int band_time(void *ctx, const struct derived_rule rules[2], struct band_trial *trial)
{
	struct forged *x = ctx;
	x->bad += x->calls++ == 0 && !same_bands(&rules[0], x->want);
	/* Every split pays, so that small's cells stay for the small trial. */
	trial->with = (struct workload_ticks){10, 5};
	trial->without = (struct workload_ticks){12, 6};
	return 0;
}

static int small_time(void *ctx, const struct derived_rule rules[2], struct small_trial *v)
{
	struct forged *x = ctx;
	(void)rules;
	x->calls++;
	v->with = (struct workload_ticks){16, 8.5};
	v->without = (struct workload_ticks){20, 8};
	v->baseline_sorted = 12;
	return 0;
}

static int shaped_time(void *ctx, const struct derived_rule *shaped, struct shaped_trial *v)
{
	struct forged *x = ctx;
	x->calls++;
	x->bad += !same_bands(shaped, x->want);
	if (x->fail)
		return -1;
	v->baseline = (struct workload_ticks){15, 8};
	v->shaped = x->wins ? (struct workload_ticks){12, 7} : (struct workload_ticks){15.5, 7};
	return 0;
}

/* small_win.csv's run, where every candidate lost: the trials from the
 * fastest, the shaped table as they made it. */
static void run_lost(struct dispatch_run *d)
{
	memset(d, 0, sizeof *d);
	*d = (struct dispatch_run){.measured = 1, .chosen = CHOSE_BASELINE,
				   .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}}, .baseline = {15, 8}};
	for (int i = 0; i < DISPATCH_CANDIDATES; i++)
		d->candidates[i] = (struct workload_ticks){20 - i, 7};
	shaped_trial_start(d);
}

static void steps_and_rule(void)
{
	about("shaped trial: the steps and the rule on small_win.csv");
	struct table t = {0};
	struct dispatch_run d;
	struct derived_rule *start = malloc(sizeof *start), *shaped = malloc(sizeof *shaped), *k = malloc(sizeof *k);
	run_lost(&d);
	struct derive_cost at = {.band_ticks = dispatch_band_ticks(&d), .multiple = d.shaped.from, .measured = 1};
	if (!start || !shaped || !k || table_with_flat(&t, 0.5) || derive_rule(&t, &at, start)) {
		check(0, "small_win.csv does not derive");
		free(start), free(shaped), free(k);
		table_free(&t);
		return;
	}
	struct forged bands = {.want = start}, small = {0};
	check(band_trials_run(&t, &d, 0.03, 240, band_time, &bands) == 0 && bands.calls > 0 && bands.bad == 0,
	      "the band trials did not start from the fastest candidate's table (%d trials, %d not it)", bands.calls,
	      bands.bad);
	check(small_trial_run(&t, &d, 0.03, small_time, &small) == 0 && small.calls == 1 && d.small.kept,
	      "the small trial did not run on the table the band trials left");
	if (derive_trialled(&t, &d, shaped)) {
		check(0, "the shaped table does not derive: %s", shaped->note);
		goto out;
	}
	check(cells_of(shaped, STRATEGY_SMALL_FLAT) > 0 && cells_of(shaped, STRATEGY_SMALL) == 0,
	      "the shaped table has no small_flat cell, or a small one: the fixture no longer tests both trials");

	struct forged wins = {.want = shaped, .wins = 1}, loses = {.want = shaped}, fails = {.want = shaped, .fail = 1};
	check(shaped_trial_run(&t, &d, 0.03, shaped_time, &wins) == 0 && wins.calls == 1 && d.shaped.kept,
	      "a shaped table faster than every copy forward is not kept");
	check(wins.bad == 0, "the table timed is not the one both trials made");
	if (derive_chosen(&t, &d, k) == 0) {
		check(same_bands(k, shaped), "the rule is not the shaped table (%d bands, want %d)", k->n_bands,
		      shaped->n_bands);
		check(strstr(k->note, "Every candidate lost") && strstr(k->note, "small_flat copies for small"),
		      "the note does not say how the table was made: %.300s", k->note);
	} else {
		check(0, "the rule with the shaped table kept does not derive: %s", k->note);
	}

	check(shaped_trial_run(&t, &d, 0.03, shaped_time, &loses) == 0 && !d.shaped.kept, "a shaped table that ties is kept");
	if (derive_chosen(&t, &d, k) == 0)
		check(k->n_bands == 1 && cells_of(k, BASELINE_STRATEGY) == N_DISTANCE_CLASSES && k->cost.multiple == 1 &&
			      k->cost.n_unsplit == 0 && strstr(k->note, "Every copy forward"),
		      "a shaped table not kept: the rule is not every copy forward, charged as when nothing was tried");
	check(shaped_trial_run(&t, &d, 0.03, shaped_time, &fails) != 0, "a failed timing did not fail the trial");

	/* Nothing to shape: a kept candidate, or a run before version 9. */
	struct forged none = {.want = shaped};
	d.chosen = candidate_multiples[1];
	shaped_trial_start(&d);
	check(shaped_trial_run(&t, &d, 0.03, shaped_time, &none) == 0 && none.calls == 0 && !d.shaped.started,
	      "a kept candidate was shaped");
	run_lost(&d);
	d.shaped.started = 0;
	check(band_trials_run(&t, &d, 0.03, 240, band_time, &none) == 0 && d.n_trials == 0 &&
		      small_trial_run(&t, &d, 0.03, small_time, &none) == 0 && !d.small.tried && none.calls == 0,
	      "a run that kept the baseline and shaped nothing was tried");
	if (derive_chosen(&t, &d, k) == 0)
		check(k->n_bands == 1, "a run before version 9 that kept the baseline derives %d bands", k->n_bands);
out:
	free(start), free(shaped), free(k);
	table_free(&t);
}

void derive_shaped_trial(void)
{
	start_and_verdict();
	lines();
	steps_and_rule();
}
