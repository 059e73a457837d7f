/* The probe's derivation on recorded tables (tests/fixtures/, written by
 * make_fixtures.lua): no timing, so the expected rule is exact. Here the
 * checks, the distance classes, the lookups and the tables refused;
 * test_derive_fixtures.c derives each table. */
#define _POSIX_C_SOURCE 200809L /* dup, to read what timings_read_csv prints */
#include "test_derive.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define STRATEGY_LIMITS(id, name, min_n, max_n, ...) {min_n, max_n},
static const struct {
	int min_n, max_n;
} limits[] = {STRATEGIES(STRATEGY_LIMITS)};
#undef STRATEGY_LIMITS

static int passed, failed;
static const char *subject;      /* what the checks are about */
struct derived_rule rule;        /* the rule they look at */
static int noted;                /* the rule's note was printed with a failure */

void check(int ok, const char *fmt, ...)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL %s: ", subject);
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!noted && rule.note[0])
		printf("  its note: %s\n", rule.note);
	noted = 1;
}

/* What every derived rule must be, whatever the table. */
static void well_formed(void)
{
	const struct derived_rule *r = &rule;
	int ok = r->n_bands >= 1 && r->n_bands <= MAX_BANDS && r->bands[0].lo == 0 &&
		 r->bands[r->n_bands - 1].hi == BAND_UNBOUNDED, aligned = 0;
	for (int i = 0; ok && i < r->n_bands; i++) {
		const struct band *b = &r->bands[i];
		ok = b->lo <= b->hi && (i == 0 || b->lo == r->bands[i - 1].hi + 1) &&
		     (i == 0 || memcmp(b->strategy, r->bands[i - 1].strategy, sizeof b->strategy) != 0);
		for (int c = 0; ok && c < N_DISTANCE_CLASSES; c++) {
			int s = b->strategy[c];
			ok = s >= 0 && s < N_COPY_STRATEGIES && b->lo >= (unsigned int)limits[s].min_n &&
			     (limits[s].max_n < 0 || b->hi <= (unsigned int)limits[s].max_n);
			aligned |= s == FA;
		}
	}
	check(ok, "the bands do not tile 0..unbounded with valid, distinct neighbours");
	check(r->align_dst == (aligned ? PROBE_ALIGN_DST : 0), "align_dst %d with forward_aligned %sused", r->align_dst,
	      aligned ? "" : "not ");
	check(r->above_max <= CLASS_BOUND_MAX && r->below_max <= CLASS_BOUND_MAX && r->near_max <= CLASS_BOUND_MAX &&
		      (r->near_max == 0 || r->near_max > r->above_max),
	      "a class bound is out of range");
	check(r->worst_regret >= 1 && r->median_regret >= 1 && r->median_regret <= r->worst_regret,
	      "regret worst %.3f, median %.3f", r->worst_regret, r->median_regret);
	check(r->zero_mod == 4096 || ((unsigned int)r->zero_mod > r->above_max && (unsigned int)r->zero_mod > r->below_max),
	      "zero_mod %d takes multiples from the above (1..%u) or below (%u) class", r->zero_mod, r->above_max,
	      r->below_max);
	check(r->note[0] && strlen(r->note) < sizeof r->note, "no note");
	/* The note is whole: its last sentence, the worst against the
	 * baseline, was not cut off (summary.md prints it). */
	size_t len = strlen(r->note);
	check(strstr(r->note, " at worst ") && len > 2 && strcmp(r->note + len - 2, "x.") == 0,
	      "the note is cut short: it ends '%s'", len > 40 ? r->note + len - 40 : r->note);
}

void about(const char *what)
{
	subject = what;
	noted = 1;
}

int derive(const char *csv)
{
	return derive_charged(csv, NULL);
}

int derive_charged(const char *csv, const struct derive_cost *cost)
{
	char path[256];
	struct timings t = {0};
	subject = csv;
	noted = 0;
	snprintf(path, sizeof path, "tests/fixtures/%s", csv);
	int ok = timings_read_csv(&t, path) == 0 && derive_rule(&t, cost, &rule) == 0;
	check(ok, "could not derive a rule");
	timings_free(&t);
	if (ok)
		well_formed();
	return ok;
}

void bounds(unsigned int above_max, unsigned int below_max, double noise, int align_dst)
{
	check(rule.zero_mod == 4096, "zero_mod %d, want 4096 (class zero is d = 0 alone)", rule.zero_mod);
	check(rule.above_max == above_max && rule.below_max == below_max,
	      "above_max %u, below_max %u, want %u and %u", rule.above_max, rule.below_max, above_max, below_max);
	check(fabs(rule.noise - noise) < 1e-9, "noise %.4f, want %.4f", rule.noise, noise);
	check(rule.align_dst == align_dst, "align_dst %d, want %d", rule.align_dst, align_dst);
}

void choose(unsigned int n, unsigned int d, int s)
{
	int got = rule_choice(&rule, n, d);
	check(got == s, "at length %u, distance %u: %s, want %s", n, d, strategy_name[got], strategy_name[s]);
}

void bands(int n_bands, double max_regret)
{
	check(rule.n_bands == n_bands, "%d bands, want %d", rule.n_bands, n_bands);
	check(rule.worst_regret <= max_regret, "worst regret %.3f at length %u, distance %u, want <= %.3f",
	      rule.worst_regret, rule.worst_length, rule.worst_distance, max_regret);
}

void baseline(void)
{
	check(rule.n_bands == 1 && rule.bands[0].lo == 0 && rule.bands[0].hi == BAND_UNBOUNDED,
	      "%d bands, want the one band 0..unbounded", rule.n_bands);
	for (int c = 0; c < N_DISTANCE_CLASSES; c++)
		check(rule.bands[0].strategy[c] == BASELINE_STRATEGY, "class %d: %s, want the baseline", c,
		      strategy_name[rule.bands[0].strategy[c]]);
}

/* A table the reader refuses, naming the file and line of the fault. */
static void expect_rejected(const char *csv, int line)
{
	char path[256], where[300], said[512] = "";
	struct timings t = {0};
	FILE *caught = tmpfile();
	int saved = dup(2);
	subject = csv;
	noted = 1;
	snprintf(path, sizeof path, "tests/fixtures/%s", csv);
	snprintf(where, sizeof where, "%s:%d: ", path, line);
	fflush(stderr);
	if (caught && saved >= 0)
		dup2(fileno(caught), 2);
	int rc = timings_read_csv(&t, path);
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
	}
	if (caught) {
		rewind(caught);
		if (!fgets(said, sizeof said, caught))
			said[0] = '\0';
		fclose(caught);
	}
	said[strcspn(said, "\n")] = '\0';
	check(rc != 0, "a malformed table was accepted");
	check(strstr(said, where) != NULL, "the reader said '%s', not where: %s", said, where);
	timings_free(&t);
}

/* A table without what the derivation needs: refused, the note says why. */
static void expect_underived(const char *what, const struct row *rows, size_t n, const char *note_part)
{
	struct timings t = {0};
	subject = what;
	noted = 1;
	for (size_t i = 0; i < n; i++)
		timings_add(&t, rows[i]);
	int rc = derive_rule(&t, NULL, &rule);
	check(rc != 0 && strstr(rule.note, note_part), "derived (%d) with the note '%s', want a refusal naming '%s'",
	      rc, rule.note, note_part);
	timings_free(&t);
}

static void classes(void)
{
	struct derived_rule r = {.above_max = 31, .near_max = 90, .below_max = 64};
	static const struct {
		unsigned int d;
		enum distance_class c;
	} want[] = {{0, CLASS_ZERO},       {4096, CLASS_ZERO},      {1, CLASS_ABOVE},     {31, CLASS_ABOVE},
		    {32, CLASS_NEAR},       {90, CLASS_NEAR},        {91, CLASS_ELSEWHERE}, {4031, CLASS_ELSEWHERE},
		    {4032, CLASS_BELOW},    {4095, CLASS_BELOW}};
	subject = "rule_class";
	noted = 1;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		check(rule_class(&r, want[i].d) == want[i].c, "d = %u is class %d, want %d", want[i].d,
		      rule_class(&r, want[i].d), want[i].c);
	r.above_max = 0;
	r.near_max = 0;
	r.below_max = 0;
	check(rule_class(&r, 1) == CLASS_ELSEWHERE && rule_class(&r, 4095) == CLASS_ELSEWHERE,
	      "with no bounds, d = 1 and 4095 are not elsewhere");
}

/* timings_find as a scan would answer: the first row added that matches. */
static const struct row *scan(const struct timings *t, int s, unsigned int n, unsigned int d, unsigned int m)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct row *r = &t->rows[i];
		if (r->strategy == s && r->length == n && r->distance == d && (m == ANY_MISALIGN || r->misalign == m))
			return r;
	}
	return NULL;
}

/* timings_find through its index: every key asked of a table that grew past
 * several re-indexings, holding keys twice (one misalignment again and a
 * new one), and keys it lacks; the same table without its index. */
static void lookups(void)
{
	struct timings t = {0};
	unsigned int x = 1;
	subject = "timings_find";
	noted = 1;
	for (int i = 0; i < 9000; i++) {
		x = x * 1103515245u + 12345u;
		struct row r = {(int)(x >> 8) % N_COPY_STRATEGIES, 1 + (x >> 12) % 40, (x >> 20) % 64, 0, i, 0};
		r.misalign = (x >> 16) % 2 ? r.distance % 64 : (r.distance + 1) % 64;
		timings_add(&t, r);
	}
	int wrong = 0;
	for (int s = -1; s <= N_COPY_STRATEGIES; s++)
		for (unsigned int n = 0; n <= 41; n++)
			for (unsigned int d = 0; d <= 65; d++) {
				const unsigned int m[] = {ANY_MISALIGN, d % 64, (d + 1) % 64, (d + 2) % 64};
				for (size_t k = 0; k < sizeof m / sizeof *m; k++)
					wrong += timings_find(&t, s, n, d, m[k]) != scan(&t, s, n, d, m[k]);
			}
	check(wrong == 0, "%d answers differ from a scan's", wrong);
	struct timings bare = {t.rows, t.n, t.cap, NULL, 0, NULL};
	check(timings_find(&bare, t.rows[500].strategy, t.rows[500].length, t.rows[500].distance, ANY_MISALIGN) ==
		      scan(&t, t.rows[500].strategy, t.rows[500].length, t.rows[500].distance, ANY_MISALIGN),
	      "a table without its index answers otherwise");
	timings_free(&t);
	struct timings empty = {0};
	check(timings_find(&empty, F, 8, 0, ANY_MISALIGN) == NULL, "an empty table finds a row");
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("usage: %s\nThe probe's derivation on the recorded tables in tests/fixtures/; prints N passed, N failed.\n", argv[0]);
		return strcmp(argv[1], "--help") == 0 ? 0 : 2;
	}
	classes();
	lookups();

	derive_fixtures();
	derive_dispatch();
	derive_small_trial();
	derive_shaped_trial();
	derive_classes_trial();
	derive_grid_gate();
	derive_search();
	derive_profile();
	derive_reference();
	derive_repair();
	derive_gate_path();
	derive_model();
	derive_overlap();
	derive_regime();
	derive_aa();
	derive_gate_points();

	expect_rejected("malformed.csv", 2);
	expect_rejected("small_at_40.csv", 4);
	expect_rejected("down_at_3.csv", 3);
	expect_underived("an empty table", NULL, 0, "no measurements");
	static const struct row no_baseline[] = {
		{F, 64, 2048, 0, 10, 0}, {DOWN, 64, 2048, 0, 12, 0}, {DOWN, 64, 5, 5, 12, 0}};
	expect_underived("a point without the baseline", no_baseline, 3, "length 64, distance 5");
	static const struct row no_reference[] = {{F, 64, 0, 0, 10, 0}, {F, 64, 5, 5, 30, 0}, {DOWN, 64, 5, 5, 12, 0}};
	expect_underived("no coarse middle", no_reference, 3, "161..3935");

	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
