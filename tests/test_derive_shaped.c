/* The shaped trial of probe versions 9 to 25 (derive/trials.c):
 * where the trials start, its archive line, and, on small_win.csv with
 * small_flat's points, the rule derive_chosen makes of a run whose every
 * candidate lost and whose shaped table was kept, or not. */
#include "test_derive.h"

#include "chosen.h"
#include "trials.h"
#include "variants.h"
#include "../common/util.h"

#include <stdlib.h>
#include <string.h>

/* Where the trials of a run that kept the baseline start: the shaped
 * trial's multiple, as its archive line records it. */
static void start(void)
{
	about("shaped trial: where the trials start");
	struct dispatch_run d = {.measured = 1, .chosen = CHOSE_BASELINE, .shaped = {1, 4, {12, 7}, {15, 8}, 1}};
	check(dispatch_start(&d) == 4 && dispatch_cost(&d).multiple == 4, "the trials start at %g, not at the shaped "
	      "trial's multiple, 4", dispatch_start(&d));
	d.shaped.started = 0;
	check(dispatch_start(&d) == CHOSE_BASELINE, "a run that shaped nothing starts trials");
	d.chosen = candidate_multiples[1];
	check(dispatch_start(&d) == candidate_multiples[1], "a kept candidate's trials do not start at its multiple");
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

/* The rule derive_chosen makes of an archive whose every candidate lost
 * and whose shaped trial, from the candidate at 4, with small_flat kept,
 * was kept: that table, its note saying how it was made; not kept, every
 * copy forward, charged as when nothing was tried; a run before version 9
 * that kept the baseline, every copy forward. */
static void rule_of_the_trial(void)
{
	about("shaped trial: the rule on small_win.csv");
	struct timings t = {0};
	struct dispatch_run d = {.measured = 1, .chosen = CHOSE_BASELINE, .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}},
				 .baseline = {15, 8}, .small = {1, {16, 8.5}, {20, 8}, 12, 1},
				 .shaped = {1, 4, {12, 7}, {15, 8}, 1}};
	struct derived_rule *shaped = malloc(sizeof *shaped), *k = malloc(sizeof *k);
	if (!shaped || !k || table_with_flat(&t, 0.5) || derive_trialled(&t, &d, shaped)) {
		check(0, "small_win.csv does not derive");
		free(shaped), free(k);
		timings_free(&t);
		return;
	}
	check(cells_of(shaped, STRATEGY_SMALL_FLAT) > 0 && cells_of(shaped, STRATEGY_SMALL) == 0,
	      "the shaped table has no small_flat cell, or a small one: the fixture no longer tests both trials");
	if (derive_chosen(&t, &d, k) == 0) {
		check(same_bands(k, shaped), "the rule is not the shaped table (%d bands, want %d)", k->n_bands,
		      shaped->n_bands);
		check(strstr(k->note, "Every candidate lost") && strstr(k->note, "small_flat copies for small"),
		      "the note does not say how the table was made: %.300s", k->note);
	} else {
		check(0, "the rule with the shaped table kept does not derive: %s", k->note);
	}
	d.shaped.kept = 0;
	if (derive_chosen(&t, &d, k) == 0)
		check(k->n_bands == 1 && cells_of(k, BASELINE_STRATEGY) == N_DISTANCE_CLASSES && k->cost.multiple == 1 &&
			      k->cost.n_unsplit == 0 && strstr(k->note, "Every copy forward"),
		      "a shaped table not kept: the rule is not every copy forward, charged as when nothing was tried");
	d.shaped.started = 0, d.small.tried = d.small.kept = 0;
	if (derive_chosen(&t, &d, k) == 0)
		check(k->n_bands == 1, "a run before version 9 that kept the baseline derives %d bands", k->n_bands);
	free(shaped), free(k);
	timings_free(&t);
}

void derive_shaped_trial(void)
{
	start();
	lines();
	rule_of_the_trial();
}
