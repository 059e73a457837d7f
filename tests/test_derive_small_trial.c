/* The small trial (derive/small_trial.c): its verdict, its archive line,
 * the one step it takes with its timing forged, and the rule derive_chosen
 * makes of it, on small_win.csv with small_flat's points added. */
#include "test_derive.h"

#include "dispatch.h"
#include "../common/util.h"

#include <stdlib.h>
#include <string.h>

static void verdicts(void)
{
	about("small trial: the verdict");
	struct small_trial wins = {1, {16, 7.7}, {18.7, 7.5}, 12.3, 0};
	check(small_trial_keeps(&wins, 0.03), "faster on random sizes, slower than small but not the baseline sorted");
	struct small_trial even = {1, {18.3, 7.5}, {18.7, 7.5}, 12.3, 0};
	check(!small_trial_keeps(&even, 0.03), "a gain within the noise on random sizes is kept");
	struct small_trial harms = {1, {16, 12.9}, {18.7, 7.5}, 12.3, 0};
	check(!small_trial_keeps(&harms, 0.03), "slower than every copy forward on the sorted control is kept");
}

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

int table_with_flat(struct table *t, double fraction)
{
	memset(t, 0, sizeof *t);
	if (table_read_csv(t, "tests/fixtures/small_win.csv"))
		return -1;
	for (size_t i = 0, n = t->n; i < n; i++)
		if (t->rows[i].strategy == STRATEGY_SMALL) {
			struct row r = t->rows[i];
			r.strategy = STRATEGY_SMALL_FLAT, r.ticks *= fraction;
			table_add(t, r);
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

/* The trial's timing, forged: the substitute wins or not; counts the calls
 * and the pairs that are not the table with small_flat in every cell of
 * small and that table as derived, alike elsewhere. */
struct forged {
	int wins, fail, calls, bad_pairs;
};

static int forged_time(void *ctx, const struct derived_rule rules[2], struct small_trial *v)
{
	struct forged *x = ctx;
	x->calls++;
	int bad = rules[0].n_bands != rules[1].n_bands || cells_of(&rules[0], STRATEGY_SMALL) != 0 ||
		  cells_of(&rules[1], STRATEGY_SMALL_FLAT) != 0;
	for (int i = 0; !bad && i < rules[0].n_bands; i++)
		for (int c = 0; c < N_DISTANCE_CLASSES; c++) {
			int a = rules[0].bands[i].strategy[c], b = rules[1].bands[i].strategy[c];
			bad |= a != b && !(a == STRATEGY_SMALL_FLAT && b == STRATEGY_SMALL);
		}
	x->bad_pairs += bad;
	if (x->fail)
		return -1;
	v->without = (struct workload_ticks){20, 8};
	v->with = x->wins ? (struct workload_ticks){16, 8.5} : v->without;
	v->baseline_sorted = 12;
	return 0;
}

static void trial_and_rule(void)
{
	about("small trial: the step and the rule on small_win.csv");
	struct table t;
	struct derived_rule *r = malloc(sizeof *r);
	struct dispatch_run d = {.measured = 1, .chosen = 1, .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}}};
	struct derive_cost cost = dispatch_cost(&d);
	if (!r || table_with_flat(&t, 0.5) || derive_rule(&t, &cost, r)) {
		check(0, "small_win.csv does not derive");
		free(r);
		return;
	}
	/* The cells never choose the substitute, however fast the grid says
	 * it is: only the trial puts it in. */
	int small = cells_of(r, STRATEGY_SMALL);
	check(small > 0, "the rule has no small cell: the fixture no longer tests the trial");
	check(cells_of(r, STRATEGY_SMALL_FLAT) == 0, "a cell chose small_flat");

	struct forged wins = {.wins = 1}, loses = {0}, fails = {.fail = 1}, none = {0};
	check(small_trial_run(&t, &d, 0.03, forged_time, &wins) == 0 && d.small.tried && d.small.kept && wins.calls == 1,
	      "a substitute that wins on random sizes is not kept");
	check(wins.bad_pairs == 0, "the pair timed is not the table with and without small_flat in small's cells");
	struct derived_rule *k = malloc(sizeof *k);
	if (k && derive_chosen(&t, &d, k) == 0) {
		check(cells_of(k, STRATEGY_SMALL) == 0 && cells_of(k, STRATEGY_SMALL_FLAT) == small,
		      "the rule kept has %d small and %d small_flat cells, want 0 and %d", cells_of(k, STRATEGY_SMALL),
		      cells_of(k, STRATEGY_SMALL_FLAT), small);
		check(strstr(k->note, "small_flat copies for small") != NULL, "the note does not say so: %.200s", k->note);
		check(k->worst_regret > 0, "the rule's regret was not measured again");
	} else {
		check(0, "the rule with the trial kept does not derive");
	}
	check(small_trial_run(&t, &d, 0.03, forged_time, &loses) == 0 && d.small.tried && !d.small.kept,
	      "a substitute that ties is kept");
	if (k && derive_chosen(&t, &d, k) == 0)
		check(cells_of(k, STRATEGY_SMALL) == small && cells_of(k, STRATEGY_SMALL_FLAT) == 0,
		      "a trial not kept changed the rule");
	check(small_trial_run(&t, &d, 0.03, forged_time, &fails) != 0, "a failed timing did not fail the trial");
	/* A substitute that loses to every copy forward at points of the grid
	 * is not tried, however it would time on the workload. */
	struct table slow;
	struct forged harmed = {.wins = 1};
	if (table_with_flat(&slow, 3.0) == 0) {
		check(small_trial_run(&slow, &d, 0.03, forged_time, &harmed) == 0 && !d.small.tried && harmed.calls == 0,
		      "a substitute slower than forward on the grid was tried");
		table_free(&slow);
	}
	d.chosen = CHOSE_BASELINE;
	check(small_trial_run(&t, &d, 0.03, forged_time, &none) == 0 && !d.small.tried && none.calls == 0,
	      "the baseline was tried");
	free(k);
	free(r);
	table_free(&t);
}

void derive_small_trial(void)
{
	verdicts();
	lines();
	trial_and_rule();
}
