/* The classes trial of probe versions 15 to 25 (derive/trials.c):
 * its archive line, and, on small_stall.csv, the table it tried where
 * every candidate and the shaped table lost, and the rule derive_chosen
 * makes of its verdict. */
#include "test_derive.h"

#include "chosen.h"
#include "grid_gate.h"
#include "trials.h"
#include "variants.h"
#include "../common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* line read into a run that kept a table or not; the parser's result. */
static int parse_into(const char *line, int kept_table, struct dispatch_run *r, char *why, size_t size)
{
	memset(r, 0, sizeof *r);
	r->measured = 1, r->chosen = kept_table ? 1 : CHOSE_BASELINE;
	return classes_trial_parse(line, r, why, size);
}

static void lines(void)
{
	about("classes trial: the archive line");
	struct dispatch_run w = {.measured = 1, .chosen = CHOSE_BASELINE, .classes = {1, {12.04, 12.1}, {11.93, 12.0}, 1}},
			    r;
	char why[300] = "";
	for (int kept = 1; kept >= 0; kept--) {
		w.classes.kept = kept;
		struct buf b = {0};
		classes_trial_text(&b, &w);
		char *nl = strchr(b.data, '\n');
		check(nl && !nl[1], "one line: '%s'", b.data);
		if (nl)
			*nl = '\0';
		int bad = parse_into(b.data, 0, &r, why, sizeof why);
		const struct classes_trial *x = &r.classes, *y = &w.classes;
		check(!bad && x->tried && x->table.random == y->table.random && x->table.sorted == y->table.sorted &&
			      x->baseline.random == y->baseline.random && x->baseline.sorted == y->baseline.sorted &&
			      x->kept == y->kept,
		      "'%s' read back otherwise (%s)", b.data, bad ? why : "read");
		buf_free(&b);
	}
	check(parse_into("classes none", 0, &r, why, sizeof why) == 0 && !r.classes.tried, "'classes none' was refused: %s",
	      why);
	check(parse_into("classes none", 1, &r, why, sizeof why) == 0, "'classes none' after a kept table was refused");
	check(parse_into("classes 12.04 12.10 11.93 12.00 kept", 1, &r, why, sizeof why) != 0 &&
		      strstr(why, "where a table was kept") && !r.classes.tried,
	      "a classes trial after a kept table was read");
	static const char *const broken[] = {
		"classes", "classes 12.04 12.10 11.93 kept", "classes 12.04 12.10 11.93 12.00 kept x",
		"classes -1 12.10 11.93 12.00 not", "classes none x", "class 12.04 12.10 11.93 12.00 kept",
	};
	for (size_t i = 0; i < sizeof broken / sizeof *broken; i++)
		check(parse_into(broken[i], 0, &r, why, sizeof why) != 0 && strstr(why, "expected 'classes none'") &&
			      !r.classes.tried,
		      "'%s' was read", broken[i]);
}

/* A run whose every candidate and shaped table lost. */
static void run_lost(struct dispatch_run *d)
{
	memset(d, 0, sizeof *d);
	*d = (struct dispatch_run){.measured = 1, .chosen = CHOSE_BASELINE,
				   .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}}, .baseline = {12, 12}};
	for (int i = 0; i < DISPATCH_CANDIDATES; i++)
		d->candidates[i] = (struct workload_ticks){20 - i, 7};
	d->shaped = (struct shaped_trial){1, candidate_multiples[DISPATCH_CANDIDATES - 1], {15, 10}, {12, 12}, 0};
}

static int read_fixture(const char *name, struct timings *t)
{
	char path[256];
	snprintf(path, sizeof path, "tests/fixtures/%s", name);
	return timings_read_csv(t, path);
}

static void table_and_rule(void)
{
	about("classes trial: the table and the rule on small_stall.csv");
	struct timings t = {0};
	struct dispatch_run d;
	struct derived_rule *trialled = malloc(sizeof *trialled), *classes = malloc(sizeof *classes),
			    *k = malloc(sizeof *k);
	run_lost(&d);
	if (!trialled || !classes || !k || read_fixture("small_stall.csv", &t) || derive_trialled(&t, &d, trialled) ||
	    classes_trial_table(&t, &d, classes) != 0) {
		check(0, "small_stall.csv does not derive a classes table");
		goto out;
	}
	check(cells_of(trialled, SMALL) > 0 && trialled->bands[0].strategy[CLASS_ELSEWHERE] == SMALL,
	      "the trials' table does not copy small elsewhere at short lengths: the fixture no longer tests the trial");
	int zero_elsewhere = 0, above_small = 0, above_down = 0;
	for (int i = 0; i < classes->n_bands; i++) {
		const struct band *b = &classes->bands[i];
		zero_elsewhere += b->strategy[CLASS_ZERO] != F || b->strategy[CLASS_ELSEWHERE] != F;
		above_small += b->strategy[CLASS_ABOVE] == SMALL;
		above_down += b->strategy[CLASS_ABOVE] == DOWN;
		check(!i || memcmp(b->strategy, classes->bands[i - 1].strategy, sizeof b->strategy) != 0,
		      "bands %u.. and %u.. copy alike: not merged", classes->bands[i - 1].lo, b->lo);
	}
	check(zero_elsewhere == 0, "%d bands copy zero or elsewhere other than forward", zero_elsewhere);
	check(above_small == 1 && above_down == 1 && classes->above_max == 31,
	      "above the source (1..%u) the classes table does not copy small at short lengths and down from 64 "
	      "(%d, %d bands)",
	      classes->above_max, above_small, above_down);
	check(classes->worst_vs_baseline <= 1 + classes->noise, "the classes table loses to forward, %.3fx",
	      classes->worst_vs_baseline);

	d.classes = (struct classes_trial){1, {12.0, 12.1}, {11.9, 12.0}, 1};
	check(dispatch_keeps_table(&d), "a run whose classes trial was kept keeps no table");
	if (derive_chosen(&t, &d, k) == 0)
		check(k->n_bands == classes->n_bands && k->bands[k->n_bands - 1].strategy[CLASS_ABOVE] == DOWN &&
			      strstr(k->note, "but in the classes") && strstr(k->note, "the classes trial"),
		      "the rule is not the classes table, or its note does not say how it was made: %.300s", k->note);
	else
		check(0, "the rule with the classes table kept does not derive: %s", k->note);

	d.classes.kept = 0;
	if (derive_chosen(&t, &d, k) == 0)
		check(k->n_bands == 1 && cells_of(k, BASELINE_STRATEGY) == N_DISTANCE_CLASSES,
		      "a classes table not kept: the rule is not every copy forward");

	/* No stall: no classes table. */
	timings_free(&t);
	run_lost(&d);
	if (read_fixture("small_win.csv", &t) == 0)
		check(classes_trial_table(&t, &d, classes) == 1, "small_win.csv, with no stall, has a classes table");
out:
	free(trialled), free(classes), free(k);
	timings_free(&t);
}

void derive_classes_trial(void)
{
	lines();
	table_and_rule();
}
