/* The probe's derivation on recorded tables (tests/fixtures/, written by
 * make_fixtures.lua): no timing, so the expected rule is exact. */
#define _POSIX_C_SOURCE 200809L /* dup, to read what table_read_csv prints */
#include "derive.h"
#include "table.h"

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

enum { F = STRATEGY_FORWARD, FA = STRATEGY_FORWARD_ALIGNED, DOWN = STRATEGY_DOWN, SMALL = STRATEGY_SMALL };

static int passed, failed;
static const char *subject;      /* what the checks are about */
static struct derived_rule rule; /* the rule they look at */
static int noted;                /* the rule's note was printed with a failure */

static void check(int ok, const char *fmt, ...)
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

static int derive(const char *csv)
{
	char path[256];
	struct table t = {0};
	subject = csv;
	noted = 0;
	snprintf(path, sizeof path, "tests/fixtures/%s", csv);
	int ok = table_read_csv(&t, path) == 0 && derive_rule(&t, &rule) == 0;
	check(ok, "could not derive a rule");
	table_free(&t);
	if (ok)
		well_formed();
	return ok;
}

static void bounds(unsigned int above_max, unsigned int below_max, double noise, int align_dst)
{
	check(rule.zero_mod == 4096, "zero_mod %d, want 4096 (class zero is d = 0 alone)", rule.zero_mod);
	check(rule.above_max == above_max && rule.below_max == below_max,
	      "above_max %u, below_max %u, want %u and %u", rule.above_max, rule.below_max, above_max, below_max);
	check(fabs(rule.noise - noise) < 1e-9, "noise %.4f, want %.4f", rule.noise, noise);
	check(rule.align_dst == align_dst, "align_dst %d, want %d", rule.align_dst, align_dst);
}

static void choose(unsigned int n, unsigned int d, int s)
{
	int got = rule_choice(&rule, n, d);
	check(got == s, "at length %u, distance %u: %s, want %s", n, d, strategy_name[got], strategy_name[s]);
}

static void bands(int n_bands, double max_regret)
{
	check(rule.n_bands == n_bands, "%d bands, want %d", rule.n_bands, n_bands);
	check(rule.worst_regret <= max_regret, "worst regret %.3f at length %u, distance %u, want <= %.3f",
	      rule.worst_regret, rule.worst_length, rule.worst_distance, max_regret);
}

/* The baseline: one band, forward everywhere, no class near the source. */
static void baseline(void)
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
	struct table t = {0};
	FILE *caught = tmpfile();
	int saved = dup(2);
	subject = csv;
	noted = 1;
	snprintf(path, sizeof path, "tests/fixtures/%s", csv);
	snprintf(where, sizeof where, "%s:%d: ", path, line);
	fflush(stderr);
	if (caught && saved >= 0)
		dup2(fileno(caught), 2);
	int rc = table_read_csv(&t, path);
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
	table_free(&t);
}

/* A table without what the derivation needs: refused, the note says why. */
static void expect_underived(const char *what, const struct row *rows, size_t n, const char *note_part)
{
	struct table t = {0};
	subject = what;
	noted = 1;
	for (size_t i = 0; i < n; i++)
		table_add(&t, rows[i]);
	int rc = derive_rule(&t, &rule);
	check(rc != 0 && strstr(rule.note, note_part), "derived (%d) with the note '%s', want a refusal naming '%s'",
	      rc, rule.note, note_part);
	table_free(&t);
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

/* table_find as a scan would answer: the first row added that matches. */
static const struct row *scan(const struct table *t, int s, unsigned int n, unsigned int d, unsigned int m)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct row *r = &t->rows[i];
		if (r->strategy == s && r->length == n && r->distance == d && (m == ANY_MISALIGN || r->misalign == m))
			return r;
	}
	return NULL;
}

/* table_find through its index: every key asked of a table that grew past
 * several re-indexings, holding keys twice (one misalignment again and a
 * new one), and keys it lacks; the same table without its index. */
static void lookups(void)
{
	struct table t = {0};
	unsigned int x = 1;
	subject = "table_find";
	noted = 1;
	for (int i = 0; i < 9000; i++) {
		x = x * 1103515245u + 12345u;
		struct row r = {(int)(x >> 8) % N_COPY_STRATEGIES, 1 + (x >> 12) % 40, (x >> 20) % 64, 0, i, 0};
		r.misalign = (x >> 16) % 2 ? r.distance % 64 : (r.distance + 1) % 64;
		table_add(&t, r);
	}
	int wrong = 0;
	for (int s = -1; s <= N_COPY_STRATEGIES; s++)
		for (unsigned int n = 0; n <= 41; n++)
			for (unsigned int d = 0; d <= 65; d++) {
				const unsigned int m[] = {ANY_MISALIGN, d % 64, (d + 1) % 64, (d + 2) % 64};
				for (size_t k = 0; k < sizeof m / sizeof *m; k++)
					wrong += table_find(&t, s, n, d, m[k]) != scan(&t, s, n, d, m[k]);
			}
	check(wrong == 0, "%d answers differ from a scan's", wrong);
	struct table bare = {t.rows, t.n, t.cap, NULL, 0, NULL};
	check(table_find(&bare, t.rows[500].strategy, t.rows[500].length, t.rows[500].distance, ANY_MISALIGN) ==
		      scan(&t, t.rows[500].strategy, t.rows[500].length, t.rows[500].distance, ANY_MISALIGN),
	      "a table without its index answers otherwise");
	table_free(&t);
	struct table empty = {0};
	check(table_find(&empty, F, 8, 0, ANY_MISALIGN) == NULL, "an empty table finds a row");
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("usage: %s\nThe probe's derivation on the recorded tables in tests/fixtures/; prints N passed, N failed.\n", argv[0]);
		return strcmp(argv[1], "--help") == 0 ? 0 : 2;
	}
	classes();
	lookups();

	if (derive("zen2_like.csv")) {
		bounds(31, 0, DERIVE_NOISE_FLOOR, 0);
		bands(2, 1.05);
		check(rule.bands[1].lo == 64, "the second band starts at %u, want 64 where the stall does",
		      rule.bands[1].lo);
		check(strstr(rule.note, "1..31 bytes above") != NULL, "the note does not give the above class");
		choose(16, 5, F);
		choose(63, 5, F);
		choose(64, 1, DOWN);
		choose(64, 31, DOWN);
		choose(64, 32, F);
		choose(8192, 17, DOWN);
		choose(1048576, 31, DOWN);
		choose(8192, 0, F);
		choose(8192, 2048, F);
		choose(8192, 4095, F);
	}
	if (derive("length_stall.csv")) {
		bounds(31, 0, DERIVE_NOISE_FLOOR, 0);
		bands(3, 1.05);
		for (int i = 0; i < rule.n_bands; i++)
			check(rule.bands[i].strategy[CLASS_ABOVE] != DOWN || rule.bands[i].hi < 1024,
			      "band %u.. goes down above the source past 1 KiB", rule.bands[i].lo);
		choose(40, 5, F);
		choose(64, 5, DOWN);
		choose(384, 31, DOWN);
		choose(384, 100, F);
		choose(512, 5, F);
		choose(1024, 5, F);
		choose(65536, 1, F);
	}
	if (derive("below_stall.csv")) {
		bounds(0, 64, DERIVE_NOISE_FLOOR, 0);
		bands(2, 1.05);
		choose(63, 4095, F);
		choose(64, 4095, DOWN);
		choose(8192, 4032, DOWN);
		choose(8192, 4031, F);
		choose(8192, 31, F);
		choose(8192, 0, F);
		choose(1048576, 4064, DOWN);
	}
	if (derive("no_stall.csv")) {
		bounds(0, 0, DERIVE_NOISE_FLOOR, 0);
		baseline();
		bands(1, 1.0);
	}
	/* A class whose own best copy is within the noise of the elsewhere
	 * class's keeps the elsewhere copy: the band then needs no distance. */
	if (derive("class_tie.csv")) {
		bounds(0, 0, DERIVE_NOISE_FLOOR, 0);
		choose(1024, 0, DOWN);
		choose(1024, 100, DOWN);
		choose(8192, 0, DOWN);
		for (int i = 0; i < rule.n_bands; i++)
			check(rule.bands[i].strategy[CLASS_ZERO] == rule.bands[i].strategy[CLASS_ELSEWHERE],
			      "band %u.. copies d = 0 its own way on a difference within the noise", rule.bands[i].lo);
	}
	if (derive("small_win.csv")) {
		bounds(0, 0, DERIVE_NOISE_FLOOR, 0);
		bands(2, 1.05);
		check(rule.bands[0].hi == 32, "the first band ends at %u, want 32, small's last length", rule.bands[0].hi);
		choose(1, 0, SMALL);
		choose(16, 5, SMALL);
		choose(32, 2048, SMALL);
		choose(32, 4095, SMALL);
		choose(33, 5, F);
		choose(8192, 5, F);
	}
	/* Every copy within 2% of rep movsb, with passes 4% apart: no gain
	 * survives the noise the spread sets, so the baseline. */
	if (derive("noisy.csv")) {
		bounds(0, 0, 0.04, 0);
		baseline();
		bands(1, 1.05);
	}
	/* The coarse middle holds misaligned destinations too, so the aligned
	 * head's gain is the elsewhere class's, and no distance needs a class. */
	if (derive("align_win.csv")) {
		bounds(0, 0, DERIVE_NOISE_FLOOR, PROBE_ALIGN_DST);
		bands(2, 1.05);
		choose(256, 5, F);
		choose(512, 100, F);
		choose(1024, 5, FA);
		choose(1024, 100, FA);
		choose(65536, 4090, FA);
		choose(8192, 0, F);
	}

	/* Mutually aligned buffers copy their own way: class zero widens to
	 * every multiple of 32, forward there, down at the other distances. */
	if (derive("aligned_fast.csv")) {
		check(rule.zero_mod == 32, "zero_mod %d, want 32", rule.zero_mod);
		choose(1024, 0, F);
		choose(1024, 64, F);
		choose(4096, 160, F);
		choose(1024, 33, DOWN);
		choose(4096, 65, DOWN);
		check(rule.worst_regret <= 1.05, "worst regret %.3f, want <= 1.05", rule.worst_regret);
	}

	/* Down wins by far on the whole of 128..512 bytes but loses 20% at two
	 * distances no above or below class can hold: the table takes rep
	 * movsb there rather than make any copy slower than the baseline (it
	 * may keep down where a class excludes them, as class zero widened to
	 * the multiples of 16 does). */
	if (derive("near_stall.csv")) {
		check(rule.above_max == 31 && rule.near_max == 65, "above_max %u, near_max %u, want 31 and 65",
		      rule.above_max, rule.near_max);
		choose(256, 5, DOWN);
		choose(256, 31, DOWN);
		choose(256, 32, F);
		choose(256, 65, F);
		choose(256, 128, DOWN);
		choose(512, 2048, DOWN);
		choose(4096, 40, F);
		check(rule.worst_regret <= 1 + DERIVE_NOISE_FLOOR, "worst regret %.3f, want within the noise of 1",
		      rule.worst_regret);
	}
	if (derive("aligned_stall.csv")) {
		check(rule.above_max == 40, "above_max %u, want 40", rule.above_max);
		choose(4096, 32, DOWN);
		choose(4096, 8, DOWN);
		check(rule.worst_regret < 2, "worst regret %.3f: a stalled point left to rep movsb", rule.worst_regret);
	}
	if (derive("harm_somewhere.csv")) {
		choose(256, 40, F);
		choose(512, 63, F);
		check(rule.worst_vs_baseline <= 1 + DERIVE_NOISE_FLOOR,
		      "worst against the baseline %.3f, want within the noise of 1", rule.worst_vs_baseline);
	}

	/* Streaming stores win past the caches, where the probe times few
	 * distances, and single lengths below 64 bytes bid for more bands than
	 * a table has: every length weighs alike, so the streaming band is
	 * bought (counted point by point, it was not). */
	if (derive("streaming_win.csv")) {
		choose(4194304, 2061, STRATEGY_AVX2_NT);
		choose(8388608, 0, STRATEGY_AVX2_NT);
		choose(8388608, 4095, STRATEGY_AVX2_NT);
		choose(2097152, 2061, F);
		choose(65536, 2061, F);
		check(rule.worst_vs_baseline <= 1 + DERIVE_NOISE_FLOOR,
		      "worst against the baseline %.3f, want within the noise of 1", rule.worst_vs_baseline);
	}

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
