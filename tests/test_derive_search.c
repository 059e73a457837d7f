/* The search (derive/search.c): the tables the model ranks on
 * small_stall.csv, small_flat where it harms no point of small_win.csv,
 * which check search_keep keeps on forged timings, the table search_chosen
 * derives again from an archive's checks, the archive's lines read back
 * and checks out of order refused, and the rule derive_chosen makes of a
 * searched run. */
#include "test_derive.h"

#include "chosen.h"
#include "search.h"
#include "../common/util.h"

#include <stdlib.h>
#include <string.h>

static const struct dispatch_run one_tick_a_band = {.measured = 1, .searched = 1, .chosen = CHOSE_BASELINE,
						   .tables = {{10, 10}, {12, 11}, {15, 12}, {20, 13}}};

static struct search_check passing(int rank, int bands, double random)
{
	return (struct search_check){.rank = rank, .bands = bands, .table = {random, 8}, .baseline = {12, 8}};
}

static void ranked(const struct timings *t, const struct search_entry *e, int n)
{
	about("search: the tables the model ranks");
	check(n >= 2 && e[n - 1].classes, "small_stall.csv ranks %d tables, not two or more, the last its stall classes", n);
	for (int i = 0; i < n; i++) {
		int reference = 1;
		for (int b = 0; b < e[i].rule.n_bands; b++)
			for (int c = 0; c < N_DISTANCE_CLASSES; c++)
				reference &= e[i].rule.bands[b].strategy[c] == timings_reference(t);
		check(!reference, "table %d copies as every copy forward everywhere", i + 1);
		check(!e[i].classes || i == n - 1, "the classes table is ranked %d of %d, not last", i + 1, n);
		for (int j = i + 1; j < n; j++) {
			check(e[i].classes || e[j].classes ||
				      e[i].model.total <= e[j].model.total * (1 + e[i].rule.noise),
			      "table %d (the model %.2f) ranks before table %d (%.2f), beyond the noise", j + 1,
			      e[j].model.total, i + 1, e[i].model.total);
			check(memcmp(e[i].rule.bands, e[j].rule.bands, sizeof e[i].rule.bands) != 0 ||
				      e[i].rule.n_bands != e[j].rule.n_bands,
			      "tables %d and %d are the same", i + 1, j + 1);
		}
	}
}

static void keeps(void)
{
	about("search: the check kept");
	struct dispatch_run d = one_tick_a_band;
	d.n_checks = 3;
	d.checks[0] = passing(0, 2, 10.0), d.checks[1] = passing(1, 3, 9.8), d.checks[2] = passing(2, 4, 8.0);
	d.checks[2].table.sorted = 20; /* beyond the noise on the sorted control */
	search_keep(&d, 0.03);
	check(search_kept(&d) == 0 && d.checks[1].verdict == CHECK_PASSED && d.checks[2].verdict == CHECK_LOST,
	      "the first ranked within the noise of the fastest that passed is not the one kept, or a loss on the "
	      "sorted control passed");
	d.checks[1].table.random = 9.0;
	search_keep(&d, 0.03);
	check(search_kept(&d) == 1 && d.checks[0].verdict == CHECK_PASSED,
	      "a table faster beyond the noise on random sizes is not kept over the one ranked before it");
	for (int i = 0; i < 3; i++)
		d.checks[i].table.random = 12.3;
	search_keep(&d, 0.03);
	check(search_kept(&d) == 0, "a table that ties every copy forward on the workload is not kept (each of its "
				    "cells wins where it differs)");
	for (int i = 0; i < 3; i++)
		d.checks[i].table.random = 13;
	search_keep(&d, 0.03);
	check(search_kept(&d) < 0, "a table slower than every copy forward beyond the noise is kept");
}

/* A run that checked each of the n ranked tables e, kept the one ranked
 * kept + 1 and lost the others. */
static struct dispatch_run kept_at(const struct search_entry *e, int n, int kept)
{
	struct dispatch_run d = one_tick_a_band;
	d.n_checks = n;
	for (int i = 0; i < n; i++)
		d.checks[i] = passing(i, e[i].rule.n_bands, 13);
	d.checks[kept].table.random = 9, d.checks[kept].verdict = CHECK_KEPT;
	return d;
}

static void chosen_again(const struct timings *t, const struct search_entry *e, int n)
{
	about("search: the table an archive's checks name");
	struct dispatch_run d = kept_at(e, n, 1);
	struct derived_rule *out = malloc(sizeof *out);
	if (!out)
		return;
	check(search_chosen(t, &d, out) == 0 && out->n_bands == e[1].rule.n_bands &&
		      memcmp(out->bands, e[1].rule.bands, sizeof out->bands) == 0 && strstr(out->note, "ranked this table 2nd"),
	      "the second ranked, kept, is not the table derived again, or its note does not say so");
	d.checks[1].bands++;
	check(search_chosen(t, &d, out) < 0 && strstr(out->note, "contradicts its own points"),
	      "a kept check whose table has another number of bands than the points derive is not refused");
	d.checks[1].bands--;
	d.checks[1].verdict = CHECK_LOST;
	check(search_chosen(t, &d, out) == 1, "a search that kept nothing names a table");
	free(out);
}

/* text, each line parsed into d; the parser's result. */
static int parse_lines(const char *text, struct dispatch_run *d)
{
	char why[300], *copy = strdup(text), *save = NULL, *line = strtok_r(copy, "\n", &save);
	memset(d, 0, sizeof *d);
	int bad = !line || search_count_parse(line, d, why, sizeof why);
	for (int k = 0; !bad && k < d->n_checks; k++) {
		line = strtok_r(NULL, "\n", &save);
		bad = !line || search_check_parse(line, &d->checks[k], why, sizeof why);
	}
	bad = bad || strtok_r(NULL, "\n", &save) || search_checks_valid(d, why, sizeof why);
	free(copy);
	return bad;
}

static void lines(void)
{
	about("search: the archive's lines");
	struct dispatch_run d = one_tick_a_band, back;
	d.n_checks = 3;
	d.checks[0] = passing(0, 2, 13), d.checks[1] = passing(1, 3, 9), d.checks[2] = passing(1, 3, 7);
	d.checks[1].verdict = CHECK_PASSED, d.checks[2].flat = 1, d.checks[2].verdict = CHECK_KEPT;
	struct buf b = {0};
	search_text(&b, &d);
	check(b.data && strcmp(b.data, "search 3\ncheck 1 plain 2 13.00 8.00 12.00 8.00 lost\n"
				       "check 2 plain 3 9.00 8.00 12.00 8.00 passed\n"
				       "check 2 flat 3 7.00 8.00 12.00 8.00 kept\n") == 0,
	      "the checks are written as '%s'", b.data ? b.data : "");
	check(b.data && parse_lines(b.data, &back) == 0 && back.n_checks == 3 && search_kept(&back) == 2 &&
		      back.checks[2].flat && back.checks[1].table.random == 9,
	      "the checks do not read back");
	buf_free(&b);
	static const char *const wrong[] = {
		"search 2\ncheck 2 plain 2 13.00 8.00 12.00 8.00 lost\ncheck 1 plain 3 9.00 8.00 12.00 8.00 kept\n",
		"search 2\ncheck 1 plain 2 9.00 8.00 12.00 8.00 kept\ncheck 2 plain 3 9.00 8.00 12.00 8.00 kept\n",
		"search 2\ncheck 1 plain 2 13.00 8.00 12.00 8.00 lost\ncheck 1 flat 2 7.00 8.00 12.00 8.00 kept\n",
		"search 1\ncheck 1 plain 2 9.00 8.00 12.00 8.00 passed\n",
		"search 2\ncheck 1 plain 2 9.00 8.00 12.00 8.00 kept\ncheck 1 flat 2 7.00 8.00 12.00 8.00 kept\n",
		"search 1\ncheck 1 plain 2 9.00 8.00 12.00 8.00 maybe\n",
		"search 1\ncheck 0 plain 2 9.00 8.00 12.00 8.00 kept\n",
		"search 1\ncheck 1 plain 2 -9.00 8.00 12.00 8.00 kept\n",
		"search 1\ncheck 1 round 2 9.00 8.00 12.00 8.00 kept\n",
		"search 9\n",
	};
	for (size_t i = 0; i < sizeof wrong / sizeof *wrong; i++)
		check(parse_lines(wrong[i], &back) != 0, "'%s' reads", wrong[i]);
}

static void rule_of_the_search(const struct timings *t, const struct search_entry *e, int n)
{
	about("search: the rule derive_chosen makes");
	struct dispatch_run d = kept_at(e, n, 0);
	struct derived_rule *out = malloc(sizeof *out);
	if (!out)
		return;
	d.gate = (struct grid_gate){.tried = 1, .worst = 1.01, .length = 256, .distance = 63};
	d.records_repairs = 1;
	check(derive_chosen(t, &d, out) == 0 && out->n_bands == e[0].rule.n_bands &&
		      strstr(out->note, "The search ranked this table 1st"),
	      "a kept table the gate passed is not the rule");
	d.gate.refused = 1;
	check(derive_chosen(t, &d, out) == 0 && out->n_bands == 1 && strstr(out->note, "after every repair"),
	      "a kept table the gate refused is the rule");
	d.gate = (struct grid_gate){0};
	d.checks[0].verdict = CHECK_LOST;
	check(derive_chosen(t, &d, out) == 0 && out->n_bands == 1 &&
		      strstr(out->note, "every table the search ranked and checked"),
	      "a search whose every table lost does not leave every copy forward, saying why");
	d.n_checks = 0;
	check(derive_chosen(t, &d, out) == 0 && out->n_bands == 1 &&
		      strstr(out->note, "derive no table that copies other than every copy forward"),
	      "a search that had no table to check does not leave every copy forward, saying why");
	free(out);
}

/* small_flat in the first table's cells of small where it harms no
 * point: at half small's time it does, at twice it does not. */
static void flat(void)
{
	about("search: the small_flat table");
	struct timings t;
	struct search_entry *e = malloc(SEARCH_TABLES * sizeof *e);
	struct derived_rule *out = malloc(sizeof *out);
	int n = 0;
	for (int slower = 0; e && out && slower < 2; slower++) {
		if (table_with_flat(&t, slower ? 2.0 : 0.5) || search_rank(&t, &one_tick_a_band, e, &n) || !n) {
			check(0, "small_win.csv does not rank");
			break;
		}
		int made = search_flat(&t, &e[0], out);
		if (slower)
			check(!made, "small_flat at twice small's time is checked");
		else
			check(made && cells_of(out, STRATEGY_SMALL_FLAT) == cells_of(&e[0].rule, SMALL) &&
				      cells_of(out, SMALL) == 0 && cells_of(out, SMALL) < cells_of(&e[0].rule, SMALL),
			      "small_flat at half small's time is not put in every cell of small");
		timings_free(&t);
	}
	free(e);
	free(out);
}

static int class_count(const int *strategy, int s)
{
	int n = 0;
	for (int c = 0; c < N_DISTANCE_CLASSES; c++)
		n += strategy[c] == s;
	return n;
}

/* Forged timings of an AVX-512 core: every copy forward 10 ticks a call,
 * avx512_masked 4 to 63 bytes, avx512_medium 5 from 64, and
 * avx512_masked_wide, which serves 0..256, wide ticks. */
static void forge_wide(struct timings *t, double wide)
{
	static const unsigned int lengths[] = {1, 16, 32, 48, 63, 64, 96, 128, 192, 256, 384, 512, 1024},
				  distances[] = {0, 1, 64, 2061, 4095};
	memset(t, 0, sizeof *t);
	for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++)
		for (size_t d = 0; d < sizeof distances / sizeof *distances; d++) {
			unsigned int n = lengths[l];
			struct row r = {.length = n, .distance = distances[d], .misalign = distances[d] % 64, .spread = 0.01};
			r.strategy = STRATEGY_FORWARD, r.ticks = 10;
			timings_add(t, r);
			if (strategy_serves(STRATEGY_AVX512_MASKED, n))
				r.strategy = STRATEGY_AVX512_MASKED, r.ticks = 4, timings_add(t, r);
			if (strategy_serves(STRATEGY_AVX512_MEDIUM, n))
				r.strategy = STRATEGY_AVX512_MEDIUM, r.ticks = n < 64 ? 6 : 5, timings_add(t, r);
			if (strategy_serves(STRATEGY_AVX512_MASKED_WIDE, n))
				r.strategy = STRATEGY_AVX512_MASKED_WIDE, r.ticks = wide, timings_add(t, r);
		}
}

/* The branch-light table of a table of avx512_masked and avx512_medium:
 * avx512_masked_wide slower than medium at every point but faster than
 * every copy forward takes medium's cells to 256 bytes, medium's band
 * split there, and leaves avx512_masked, which compares nothing, alone;
 * slower than every copy forward, it takes none. The kept flat check
 * derives that table again. */
static void branch_light_table(void)
{
	about("search: the branch-light table");
	struct timings t;
	struct search_entry *e = malloc(SEARCH_TABLES * sizeof *e);
	struct derived_rule *out = malloc(sizeof *out);
	int n = 0;
	for (int harms = 0; e && out && harms < 2; harms++) {
		forge_wide(&t, harms ? 12 : 6);
		if (search_rank(&t, &one_tick_a_band, e, &n) || !n) {
			check(0, "the forged timings do not rank: %s", e[0].rule.note);
			timings_free(&t);
			break;
		}
		const struct derived_rule *r = &e[0].rule;
		check(r->n_bands >= 2 && r->bands[0].strategy[CLASS_ELSEWHERE] == STRATEGY_AVX512_MASKED &&
			      r->bands[1].strategy[CLASS_ELSEWHERE] == STRATEGY_AVX512_MEDIUM && r->bands[1].hi > 256,
		      "the forged timings do not derive avx512_masked, then avx512_medium past 256 bytes");
		unsigned int pairs = search_flat(&t, &e[0], out);
		if (harms) {
			check(pairs == 0, "avx512_masked_wide slower than every copy forward is put in a table");
		} else {
			char said[160];
			branch_light_say(pairs, said, sizeof said);
			check(out->n_bands == r->n_bands + 1 && memcmp(&out->bands[0], &r->bands[0], sizeof *r->bands) == 0 &&
				      out->bands[1].lo == 64 && out->bands[1].hi == 256 &&
				      class_count(out->bands[1].strategy, STRATEGY_AVX512_MASKED_WIDE) == N_DISTANCE_CLASSES &&
				      out->bands[2].lo == 257 && out->bands[2].strategy[CLASS_ELSEWHERE] == STRATEGY_AVX512_MEDIUM,
			      "avx512_masked_wide does not take 64..256 bytes in a band of its own, masked and medium the rest");
			check(strcmp(said, "avx512_masked_wide in avx512_medium's cells") == 0, "the pairs are said as '%s'",
			      said);
			struct dispatch_run d = one_tick_a_band;
			d.profile_fit = d.against_reference = 0, d.n_checks = 2;
			d.checks[0] = passing(0, r->n_bands, 8), d.checks[1] = passing(0, out->n_bands, 6);
			d.checks[0].verdict = CHECK_PASSED, d.checks[1].verdict = CHECK_KEPT, d.checks[1].flat = 1;
			struct derived_rule *again = malloc(sizeof *again);
			check(again && search_chosen_ranked(&t, &d, e, n, again) == 0 &&
				      memcmp(again->bands, out->bands, sizeof out->bands) == 0 &&
				      strstr(again->note, "with avx512_masked_wide in avx512_medium's cells"),
			      "the kept flat check does not derive the branch-light table again, saying so");
			free(again);
		}
		timings_free(&t);
	}
	free(e);
	free(out);
}

void derive_search(void)
{
	struct timings t = {0};
	struct search_entry *e = malloc(SEARCH_TABLES * sizeof *e);
	int n = 0;
	if (!e || timings_read_csv(&t, "tests/fixtures/small_stall.csv")) {
		check(0, "small_stall.csv does not read");
		free(e);
		return;
	}
	if (search_rank(&t, &one_tick_a_band, e, &n) == 0) {
		ranked(&t, e, n);
		if (n >= 2) {
			chosen_again(&t, e, n);
			rule_of_the_search(&t, e, n);
		}
	} else {
		check(0, "small_stall.csv does not rank: %s", e[0].rule.note);
	}
	keeps();
	lines();
	flat();
	branch_light_table();
	free(e);
	timings_free(&t);
}
