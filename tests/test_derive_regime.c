/* The regime check (derive/regime.h): the copies it judges, a clean table
 * that it leaves alone, one drop that it flags once, and the two archives
 * of a Zen 5 guest whose probe timed vector copies faster at 4096 bytes
 * than at 3072, where its lanes' buffers outgrew the L1 cache. */
#include "test_derive.h"

#include "archive.h"
#include "regime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The flag of strategy s at length n and distance d, or NULL. */
static const struct regime_flag *flag_at(const struct regime_check *c, int s, unsigned int n, unsigned int d)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->flags[i].strategy == s && c->flags[i].length == n && c->flags[i].distance == d)
			return &c->flags[i];
	return NULL;
}

/* The check on tests/fixtures/csv; 0 when the table does not read. */
static int check_csv(const char *csv, struct regime_check *c)
{
	char path[256];
	struct timings t = {0};
	snprintf(path, sizeof path, "tests/fixtures/%s", csv);
	about(csv);
	int ok = timings_read_csv(&t, path) == 0;
	check(ok, "the table does not read");
	if (ok)
		regime_run(&t, c);
	timings_free(&t);
	return ok;
}

/* The check on the archive tests/fixtures/name, each point its least time
 * over the passes; 0 when it does not load. */
static int check_archive(const char *name, struct regime_check *c)
{
	char path[256], why[512];
	struct run_archive a;
	snprintf(path, sizeof path, "tests/fixtures/%s", name);
	about(name);
	int ok = archive_load(path, &a, why, sizeof why) == 0;
	check(ok, "the archive does not load: %s", ok ? "" : why);
	if (!ok)
		return 0;
	struct timings t;
	measurement_table(&a.m, a.m.passes, &t);
	regime_run(&t, c);
	timings_free(&t);
	archive_free(&a);
	return 1;
}

static void regime_catalogue(void)
{
	about("the copies the regime check judges");
	static const int judged[] = {STRATEGY_FORWARD, STRATEGY_FORWARD_ALIGNED, STRATEGY_AVX2_FORWARD,
				     STRATEGY_AVX2_DOWN, STRATEGY_AVX2_NT, STRATEGY_AVX512_FORWARD, STRATEGY_AVX512_DOWN};
	int n_judged = 0;
	for (int s = 0; s < N_COPY_STRATEGIES; s++)
		n_judged += regime_judged(s);
	for (size_t i = 0; i < sizeof judged / sizeof *judged; i++)
		check(regime_judged(judged[i]), "%s, rep movsb or ymm or zmm moves of any length, is not judged",
		      strategy_name[judged[i]]);
	check(n_judged == (int)(sizeof judged / sizeof *judged), "%d strategies judged, want %zu", n_judged,
	      sizeof judged / sizeof *judged);
	check(!regime_judged(-1) && !regime_judged(N_COPY_STRATEGIES), "a code outside the catalogue is judged");
}

static void regime_forged(void)
{
	struct regime_check c;
	if (check_csv("regime_clean.csv", &c)) {
		check(c.n == 0, "%zu points flagged, want none", c.n);
		check(c.compared == 36, "%zu pairs compared, want 36 (3 copies, 4 pairs of lengths, 3 distances)",
		      c.compared);
		regime_free(&c);
	}
	if (check_csv("no_stall.csv", &c)) {
		check(c.n == 0 && c.compared > 0, "%zu points flagged of %zu compared, want none", c.n, c.compared);
		regime_free(&c);
	}
	if (check_csv("regime_drop.csv", &c)) {
		check(c.n == 1, "%zu points flagged, want 1", c.n);
		const struct regime_flag *f = flag_at(&c, STRATEGY_AVX512_FORWARD, 3072, 0);
		check(f && f->next == 4096 && fabs(f->ticks - 130) < 1e-9 && fabs(f->next_ticks - 74) < 1e-9 &&
			      f->compared == 2,
		      "avx512_forward at 3072 bytes, d = 0, not flagged as 130 ticks against 74 at 4096, of 2 distances");
		check(c.compared == 30, "%zu pairs compared, want 30: none where 4096 was not timed", c.compared);
		struct regime_group *g;
		size_t n = regime_groups(&c, &g);
		char text[256] = "";
		if (n)
			regime_group_text(&c, &g[0], text, sizeof text);
		check(n == 1 && strcmp(text, "avx512_forward, 3072 bytes: 1 of 2 distances, down to 0.569 of the time at "
					     "4096 (d = 0: 130.00 ticks, 74.00)") == 0,
		      "%zu groups, the first '%s'", n, text);
		free(g);
		regime_free(&c);
	}
}

/* Whether the flag is one of the user archive's: a ymm or zmm copy at
 * 3072 bytes against 4096, or rep movsb at 1..7 bytes where d = n. */
static int user_flag(const struct regime_flag *f)
{
	if (f->strategy == STRATEGY_FORWARD)
		return f->length == f->distance && f->length <= 7;
	return strategy_catalogue[f->strategy].isa != ISA_GPR && f->length == 3072 && f->next == 4096;
}

static void regime_archives(void)
{
	struct regime_check c;
	if (check_archive("zen5_guest_user.run", &c)) {
		const struct regime_flag *f = flag_at(&c, STRATEGY_AVX512_FORWARD, 3072, 0);
		check(f && f->next == 4096 && f->ticks > 116 && f->next_ticks < 50,
		      "avx512_forward at 3072 bytes, d = 0, not flagged against 4096");
		size_t other = 0;
		for (size_t i = 0; i < c.n; i++)
			other += !user_flag(&c.flags[i]);
		check(c.n == 290 && other == 0, "%zu points flagged, %zu of them not a vector copy at 3072 bytes or rep "
						"movsb at n = d <= 7; want 290 and none",
		      c.n, other);
		struct regime_group *g;
		size_t n = regime_groups(&c, &g);
		check(n == 11 && g[0].n == 71 && c.flags[g[0].first].length == 3072 && g[0].n == c.flags[g[0].first].compared,
		      "%zu groups, the first not a length flagged at all 71 distances", n);
		free(g);
		regime_free(&c);
	}
	if (check_archive("zen5_guest_kernel.run", &c)) {
		const struct regime_flag *f = flag_at(&c, STRATEGY_FORWARD, 3072, 2);
		check(f && f->next == 4096, "forward at 3072 bytes, d = 2, not flagged against 4096");
		check(c.n == 176, "%zu points flagged, want 176", c.n);
		regime_free(&c);
	}
}

/* The points that decide cells (regime_deciding): regime_drop.csv, with
 * avx512_forward as fast at 3072 bytes, d = 2061, as at d = 5, less its
 * flagged point, every copy's time there, where the run's probe excludes
 * them; all of it where not. The cell that holds the flagged point then
 * takes the copy the other points support. */
static void regime_decides_nothing(void)
{
	about("a flagged point decides no cell");
	struct timings csv = {0}, t = {0}, kept, all;
	if (timings_read_csv(&csv, "tests/fixtures/regime_drop.csv")) {
		check(0, "regime_drop.csv does not read");
		return;
	}
	/* avx512_forward at 3072 bytes, d = 2061, as fast as at d = 5, and
	 * 4096 bytes timed at d = 2061 as at 5, which the derivation needs:
	 * the flagged point alone says otherwise. */
	for (size_t i = 0; i < csv.n; i++) {
		struct row r = csv.rows[i];
		if (r.strategy == STRATEGY_AVX512_FORWARD && r.length == 3072 && r.distance == 2061)
			r.ticks = 58;
		timings_add(&t, r);
		if (r.length == 4096 && r.distance == 5)
			r.distance = 2061, r.misalign = 13, timings_add(&t, r);
	}
	timings_free(&csv);
	size_t left_out = regime_deciding(&t, 1, &kept), none = regime_deciding(&t, 0, &all);
	size_t at_point = 0;
	for (size_t i = 0; i < t.n; i++)
		at_point += t.rows[i].length == 3072 && t.rows[i].distance == 0;
	check(left_out == 1 && kept.n == t.n - at_point && at_point == 5 &&
		      !timings_find(&kept, STRATEGY_FORWARD, 3072, 0, ANY_MISALIGN) &&
		      timings_find(&kept, STRATEGY_AVX512_FORWARD, 4096, 0, ANY_MISALIGN),
	      "%zu points left out, %zu of %zu rows kept: want the 5 rows at 3072 bytes, d = 0, alone left out",
	      left_out, kept.n, t.n);
	check(none == 0 && all.n == t.n, "a run that does not exclude lost %zu points (%zu of %zu rows)", none, all.n,
	      t.n);
	struct derived_rule with, without;
	int ok = derive_rule(&all, NULL, &with) == 0 && derive_rule(&kept, NULL, &without) == 0;
	check(ok, "regime_drop.csv does not derive, with or without its flagged point: %s / %s", with.note, without.note);
	if (ok)
		check(rule_choice(&with, 3072, 0) != STRATEGY_AVX512_FORWARD &&
		      rule_choice(&without, 3072, 0) == STRATEGY_AVX512_FORWARD,
	      "3072 bytes, d = 0, copies by %s with its flagged point and by %s without it; want another copy, "
	      "then avx512_forward, which every other point supports",
	      strategy_name[rule_choice(&with, 3072, 0)], strategy_name[rule_choice(&without, 3072, 0)]);
	timings_free(&t), timings_free(&kept), timings_free(&all);
}

void derive_regime(void)
{
	regime_catalogue();
	regime_forged();
	regime_archives();
	regime_decides_nothing();
}
