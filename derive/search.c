/* The search (search.h): the tables the fit derives, ranked by the model;
 * which of them the checks keep; the checks' lines. */
#include "search.h"

#include "grid.h"

#include "../common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same_table(const struct derived_rule *a, const struct derived_rule *b)
{
	if (a->n_bands != b->n_bands || a->above_max != b->above_max || a->below_max != b->below_max ||
	    a->near_max != b->near_max || a->zero_mod != b->zero_mod)
		return 0;
	for (int i = 0; i < a->n_bands; i++)
		if (a->bands[i].lo != b->bands[i].lo || a->bands[i].hi != b->bands[i].hi ||
		    memcmp(a->bands[i].strategy, b->bands[i].strategy, sizeof a->bands[i].strategy) != 0)
			return 0;
	return 1;
}

/* Whether r copies as the baseline everywhere: every cell forward, which
 * ships as the baseline, or every cell t's reference (timings_reference). No
 * check times the baseline against itself. */
static int is_reference(const struct timings *t, const struct derived_rule *r)
{
	int forward = 1, reference = 1;
	for (int i = 0; i < r->n_bands; i++)
		for (int c = 0; c < N_DISTANCE_CLASSES; c++) {
			forward &= r->bands[i].strategy[c] == BASELINE_STRATEGY;
			reference &= r->bands[i].strategy[c] == timings_reference(t);
		}
	return forward || reference;
}

/* The model's figures for e, or a total of HUGE_VAL where t has no time
 * for a copy its tree reaches at a call's length (a probe's quick run):
 * such a table ranks after every table the model times. */
static void model_of(const struct timings *t, const struct model_costs *mc, struct search_entry *e)
{
	if (rule_model(t, &e->rule, mc, 0, &e->model))
		e->model = (struct model_figures){.total = HUGE_VAL};
}

static int fit(const struct timings *t, const struct model_costs *mc, const struct derive_cost *cost,
	       struct search_entry *e)
{
	e->multiple = cost->multiple, e->classes = 0, e->profile = cost->weighting == LENGTHS_PROFILE;
	if (derive_rule(t, cost, &e->rule))
		return -1;
	model_of(t, mc, e);
	return 0;
}

/* Appends e to out unless it copies as the reference or as an entry
 * before it. */
static void append(const struct timings *t, struct search_entry *out, int *n, const struct search_entry *e)
{
	if (is_reference(t, &e->rule))
		return;
	for (int i = 0; i < *n; i++)
		if (same_table(&out[i].rule, &e->rule))
			return;
	out[(*n)++] = *e;
}

/* The next of n fitted tables in rank: of those the model times within
 * the noise of the least, the one of fewest bands, then the higher
 * multiple. */
static int first_of(const struct search_entry *fitted, int n)
{
	double least = HUGE_VAL;
	for (int i = 0; i < n; i++)
		least = fmin(least, fitted[i].model.total);
	int first = -1;
	for (int i = 0; i < n; i++) {
		if (isfinite(least) && fitted[i].model.total > least * (1 + fitted[i].rule.noise))
			continue;
		if (first < 0 || fitted[i].rule.n_bands < fitted[first].rule.n_bands ||
		    (fitted[i].rule.n_bands == fitted[first].rule.n_bands && fitted[i].multiple > fitted[first].multiple))
			first = i;
	}
	return first;
}

static int rank(const struct timings *t, const struct dispatch_run *d, struct search_entry *fitted,
		struct search_entry *scratch, struct search_entry *out, int *n)
{
	struct model_costs mc = model_costs_of(d);
	int n_fitted = DISPATCH_CANDIDATES + (d->profile_fit != 0);
	for (int i = 0; i < n_fitted; i++) {
		struct derive_cost cost = {.band_ticks = dispatch_band_ticks(d),
					   .multiple = 1,
					   .measured = 1,
					   .against_reference = d->against_reference};
		if (i < DISPATCH_CANDIDATES)
			cost.multiple = candidate_multiples[i];
		else
			cost.weighting = LENGTHS_PROFILE, cost.compare_ticks = mc.compare_ticks,
			cost.mispredict_ticks = mc.mispredict_ticks;
		if (fit(t, &mc, &cost, &fitted[i])) {
			snprintf(out[0].rule.note, sizeof out[0].rule.note, "%s", fitted[i].rule.note);
			return -1;
		}
	}
	for (int left = n_fitted; left > 0; left--) {
		int next = first_of(fitted, left);
		append(t, out, n, &fitted[next]);
		fitted[next] = fitted[left - 1];
	}
	/* The classes table of the first: its gain lies where the workload
	 * rarely goes, at the few distances where rep movsb stalls (measured:
	 * see docs/notebook/measurements-2026-12.md#the-classes-trial). */
	if (!*n)
		return 0;
	*scratch = out[0];
	int rc = classes_only(t, &scratch->rule);
	if (rc < 0) {
		snprintf(out[0].rule.note, sizeof out[0].rule.note, "%s", scratch->rule.note);
		return -1;
	}
	scratch->classes = 1;
	if (rc == 0) {
		model_of(t, &mc, scratch);
		append(t, out, n, scratch);
	}
	return 0;
}

int search_rank(const struct timings *t, const struct dispatch_run *d, struct search_entry out[SEARCH_TABLES], int *n)
{
	struct search_entry *fitted = malloc(SEARCH_FITS * sizeof *fitted), *scratch = malloc(sizeof *scratch);
	*n = 0;
	int rc = fitted && scratch ? rank(t, d, fitted, scratch, out, n) : -1;
	if (!fitted || !scratch)
		snprintf(out[0].rule.note, sizeof out[0].rule.note, "out of memory");
	free(fitted);
	free(scratch);
	return rc;
}

unsigned int search_flat(const struct timings *t, const struct search_entry *e, struct derived_rule *out)
{
	*out = e->rule;
	return branch_light(t, out);
}

int search_check_passes(const struct search_check *c, double noise)
{
	return c->table.random <= c->baseline.random * (1 + noise) && c->table.sorted <= c->baseline.sorted * (1 + noise);
}

int search_flat_wins(const struct search_check *flat, const struct search_check *plain, double noise)
{
	return search_check_passes(flat, noise) && flat->table.random * (1 + noise) < plain->table.random;
}

void search_keep(struct dispatch_run *d, double noise)
{
	double fastest = HUGE_VAL;
	for (int i = 0; i < d->n_checks; i++) {
		struct search_check *c = &d->checks[i];
		c->verdict = search_check_passes(c, noise) ? CHECK_PASSED : CHECK_LOST;
		if (c->verdict == CHECK_PASSED)
			fastest = fmin(fastest, c->table.random);
	}
	for (int i = 0; i < d->n_checks; i++)
		if (d->checks[i].verdict == CHECK_PASSED && d->checks[i].table.random <= fastest * (1 + noise)) {
			d->checks[i].verdict = CHECK_KEPT;
			return;
		}
}

static void say_checks(struct derived_rule *out, const struct dispatch_run *d, const struct search_entry *e,
		       const char *flat)
{
	int kept = search_kept(d);
	const struct search_check *k = &d->checks[kept];
	char model[64] = "the model has no time for a copy it reaches";
	if (isfinite(e->model.total))
		snprintf(model, sizeof model, "%.2f ticks a call on random sizes", e->model.total);
	size_t len = strnlen(out->note, sizeof out->note - 1);
	snprintf(out->note + len, sizeof out->note - len,
		 " The search ranked this table %d%s by the model (%s), %s; compiled, it took %.2f ticks a call on "
		 "random sizes against %.2f for every copy %s as it ships, and %.2f against %.2f sorted",
		 k->rank + 1, k->rank == 0 ? "st" : k->rank == 1 ? "nd" : k->rank == 2 ? "rd" : "th", model,
		 e->classes   ? "the first table's stall classes alone, every other cell copying as every copy forward does"
		 : e->profile ? "fitted to the size profile, each length weighing the calls it stands for"
			      : "fitted at a multiple of the measured band cost",
		 k->table.random, k->baseline.random, strategy_name[BASELINE_STRATEGY], k->table.sorted,
		 k->baseline.sorted);
	if (k->flat)
		say(out, ", with %s, faster beyond the noise on random sizes than without (%.2f)", flat,
		    d->checks[kept - 1].table.random);
	say(out, ".");
}

int search_chosen(const struct timings *t, const struct dispatch_run *d, struct derived_rule *out)
{
	int n, rc;
	if (search_kept(d) < 0)
		return 1;
	struct search_entry *e = malloc(SEARCH_TABLES * sizeof *e);
	if (!e) {
		snprintf(out->note, sizeof out->note, "out of memory");
		return -1;
	}
	if (search_rank(t, d, e, &n)) {
		snprintf(out->note, sizeof out->note, "%s", e[0].rule.note);
		rc = -1;
	} else {
		rc = search_chosen_ranked(t, d, e, n, out);
	}
	free(e);
	return rc;
}

int search_chosen_ranked(const struct timings *t, const struct dispatch_run *d, const struct search_entry *e, int n,
			 struct derived_rule *out)
{
	int kept = search_kept(d);
	if (kept < 0)
		return 1;
	const struct search_check *k = &d->checks[kept];
	int derived = k->rank < n;
	unsigned int pairs = 0;
	char flat[160];
	if (derived && k->flat)
		derived = (pairs = search_flat(t, &e[k->rank], out)) != 0;
	else if (derived)
		*out = e[k->rank].rule;
	if (!derived || out->n_bands != k->bands) {
		snprintf(out->note, sizeof out->note,
			 "The archive's search kept its %stable ranked %d, of %d bands, but its points rank %d tables%s: "
			 "the archive contradicts its own points.",
			 k->flat ? "branch-light " : "", k->rank + 1, k->bands, n,
			 k->rank < n ? " and derive that one otherwise" : "");
		return -1;
	}
	branch_light_say(pairs, flat, sizeof flat);
	say_checks(out, d, &e[k->rank], flat);
	return 0;
}

static const char *const verdict_word[] = {"lost", "passed", "kept"};

void search_text(struct buf *b, const struct dispatch_run *d)
{
	buf_printf(b, "search %d\n", d->n_checks);
	for (int i = 0; i < d->n_checks; i++) {
		const struct search_check *c = &d->checks[i];
		buf_printf(b, "check %d %s %d %.2f %.2f %.2f %.2f %s\n", c->rank + 1, c->flat ? "flat" : "plain", c->bands,
			   c->table.random, c->table.sorted, c->baseline.random, c->baseline.sorted,
			   verdict_word[c->verdict]);
	}
}

int search_count_parse(const char *line, struct dispatch_run *d, char *why, size_t why_size)
{
	char *end;
	d->searched = 1;
	if (strncmp(line, "search ", 7) == 0) {
		long n = strtol(line + 7, &end, 10);
		if (end != line + 7 && !*end && n >= 0 && n <= SEARCH_CHECKS_MAX) {
			d->n_checks = (int)n;
			return 0;
		}
	}
	snprintf(why, why_size, "expected 'search N' with N in 0..%d, found '%.60s'", SEARCH_CHECKS_MAX, line);
	return -1;
}

int search_check_parse(const char *line, struct search_check *c, char *why, size_t why_size)
{
	int rank, bands, used = 0;
	char kind[8];
	const char *s = NULL;
	memset(c, 0, sizeof *c);
	if (!strchr(line, '-') && sscanf(line, "check %d %7s %d %n", &rank, kind, &bands, &used) == 3 && used > 0 &&
	    rank >= 1 && rank <= SEARCH_TABLES && bands >= 1 && bands <= MAX_BANDS &&
	    (strcmp(kind, "plain") == 0 || strcmp(kind, "flat") == 0))
		s = line + used;
	s = s ? ticks_then_space(s, &c->table.random) : NULL;
	s = s ? ticks_then_space(s, &c->table.sorted) : NULL;
	s = s ? ticks_then_space(s, &c->baseline.random) : NULL;
	s = s ? ticks_then_space(s, &c->baseline.sorted) : NULL;
	for (int v = 0; s && v < 3; v++)
		if (strcmp(s, verdict_word[v]) == 0) {
			c->rank = rank - 1, c->flat = kind[0] == 'f', c->bands = bands, c->verdict = (enum check_verdict)v;
			return 0;
		}
	snprintf(why, why_size,
		 "expected 'check RANK plain|flat BANDS TABLE_RANDOM TABLE_SORTED BASELINE_RANDOM BASELINE_SORTED "
		 "lost|passed|kept' (RANK 1..%d), found '%.80s'",
		 SEARCH_TABLES, line);
	return -1;
}

/* What is wrong with check i of d; NULL where nothing is. */
static const char *check_order(const struct dispatch_run *d, int i)
{
	const struct search_check *c = &d->checks[i];
	if (!c->flat)
		return c->rank == i ? NULL : "the ranked tables are checked each once, in their order";
	if (i + 1 != d->n_checks)
		return "a branch-light table's check is the last";
	const struct search_check *plain = NULL;
	for (int k = 0; k < i; k++)
		if (!d->checks[k].flat && d->checks[k].rank == c->rank)
			plain = &d->checks[k];
	if (!plain || plain->verdict == CHECK_LOST)
		return "a branch-light table is checked for the table kept, which passed";
	if ((plain->verdict == CHECK_PASSED) != (c->verdict == CHECK_KEPT))
		return "of a table kept and its branch-light table, one is kept";
	return NULL;
}

int search_checks_valid(const struct dispatch_run *d, char *why, size_t why_size)
{
	int kept = 0, passed = 0;
	for (int i = 0; i < d->n_checks; i++) {
		const char *wrong = check_order(d, i);
		kept += d->checks[i].verdict == CHECK_KEPT;
		passed += d->checks[i].verdict != CHECK_LOST;
		if (wrong || kept > 1) {
			snprintf(why, why_size, "check %d: %s", i + 1, wrong ? wrong : "at most one table is kept");
			return -1;
		}
	}
	if (passed && !kept) {
		snprintf(why, why_size, "a table passed its check, but none is kept");
		return -1;
	}
	return 0;
}
