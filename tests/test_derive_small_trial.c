/* The small trial of probe versions 8 to 25 (derive/trials.c): its
 * archive line, and the rule derive_chosen makes of it, on small_win.csv
 * with small_flat's points added. */
#include "test_derive.h"

#include "chosen.h"
#include "trials.h"
#include "variants.h"
#include "../common/util.h"

#include <stdlib.h>
#include <string.h>

static void lines(void)
{
	about("small trial: the archive line");
	struct dispatch_run w = {.small = {1, {15.9, 7.67}, {18.71, 7.47}, 12.3, 1}}, r = {0};
	char why[300] = "";
	for (int tried = 1; tried >= 0; tried--) {
		w.small.tried = tried;
		struct buf b = {0};
		small_trial_text(&b, &w);
		char *nl = strchr(b.data, '\n');
		check(nl && !nl[1], "one line: '%s'", b.data);
		if (nl)
			*nl = '\0';
		int bad = small_trial_parse(b.data, &r.small, why, sizeof why);
		const struct small_trial *x = &r.small, *y = &w.small;
		check(!bad && x->tried == tried &&
			      (!tried || (x->with.random == y->with.random && x->with.sorted == y->with.sorted &&
					  x->without.random == y->without.random && x->without.sorted == y->without.sorted &&
					  x->baseline_sorted == y->baseline_sorted && x->kept == y->kept)),
		      "'%s' read back otherwise (%s)", b.data, bad ? why : "read");
		buf_free(&b);
	}
	static const char *const broken[] = {
		"small_trial", "small_trial 15.90 7.67 18.71 7.47 12.30", "small_trial 15.90 7.67 18.71 7.47 12.30 kept x",
		"small_trial 15.90 7.67 -1 7.47 12.30 not", "small_flat 15.90 7.67 18.71 7.47 12.30 kept", "small_trial none x",
	};
	for (size_t i = 0; i < sizeof broken / sizeof *broken; i++)
		check(small_trial_parse(broken[i], &r.small, why, sizeof why) != 0 && strstr(why, "expected 'small_trial none'"),
		      "'%s' was read", broken[i]);
}

int table_with_flat(struct timings *t, double fraction)
{
	memset(t, 0, sizeof *t);
	if (timings_read_csv(t, "tests/fixtures/small_win.csv"))
		return -1;
	for (size_t i = 0, n = t->n; i < n; i++)
		if (t->rows[i].strategy == STRATEGY_SMALL) {
			struct row r = t->rows[i];
			r.strategy = STRATEGY_SMALL_FLAT, r.ticks *= fraction;
			timings_add(t, r);
		}
	return 0;
}

int cells_of(const struct derived_rule *r, int s)
{
	int n = 0;
	for (int i = 0; i < r->n_bands; i++)
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			n += r->bands[i].strategy[c] == s;
	return n;
}

/* The rule derive_chosen makes of an archive's small trial: kept, every
 * cell of small copies by small_flat and the note says so; not kept,
 * nothing changes; kept where small_flat loses to every copy forward at
 * a point of the grid, refused as contradicting the points. */
static void rule_of_the_trial(void)
{
	about("small trial: the rule on small_win.csv");
	struct timings t, slow;
	struct derived_rule *r = malloc(sizeof *r), *k = malloc(sizeof *k);
	struct dispatch_run d = {.measured = 1, .chosen = 1, .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}},
				 .small = {1, {16, 8.5}, {20, 8}, 12, 1}};
	struct derive_cost cost = dispatch_cost(&d);
	if (!r || !k || table_with_flat(&t, 0.5) || derive_rule(&t, &cost, r)) {
		check(0, "small_win.csv does not derive");
		free(r), free(k);
		return;
	}
	/* The cells never choose the substitute, however fast the grid says
	 * it is: only the trial puts it in. */
	int small = cells_of(r, STRATEGY_SMALL);
	check(small > 0, "the rule has no small cell: the fixture no longer tests the trial");
	check(cells_of(r, STRATEGY_SMALL_FLAT) == 0, "a cell chose small_flat");
	if (derive_chosen(&t, &d, k) == 0) {
		check(cells_of(k, STRATEGY_SMALL) == 0 && cells_of(k, STRATEGY_SMALL_FLAT) == small,
		      "the rule kept has %d small and %d small_flat cells, want 0 and %d", cells_of(k, STRATEGY_SMALL),
		      cells_of(k, STRATEGY_SMALL_FLAT), small);
		check(strstr(k->note, "small_flat copies for small") != NULL, "the note does not say so: %.200s", k->note);
		check(k->worst_regret > 0, "the rule's regret was not measured again");
	} else {
		check(0, "the rule with the trial kept does not derive");
	}
	d.small.kept = 0;
	if (derive_chosen(&t, &d, k) == 0)
		check(cells_of(k, STRATEGY_SMALL) == small && cells_of(k, STRATEGY_SMALL_FLAT) == 0,
		      "a trial not kept changed the rule");
	d.small.kept = 1;
	if (table_with_flat(&slow, 3.0) == 0) {
		check(derive_chosen(&slow, &d, k) != 0 && strstr(k->note, "contradicts its own points"),
		      "a kept substitute slower than forward on the grid is not refused");
		timings_free(&slow);
	}
	free(k);
	free(r);
	timings_free(&t);
}

void derive_small_trial(void)
{
	lines();
	rule_of_the_trial();
}
