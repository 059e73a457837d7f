/* The candidates and trials of probe versions 3 to 25 (trials.h): the
 * table they kept, as their archives record the verdicts, and their
 * archive lines. */
#include "trials.h"

#include "grid_gate.h"
#include "variants.h"

#include "../common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int derive_trialled(const struct timings *t, const struct dispatch_run *d, struct derived_rule *out)
{
	struct derive_cost cost = dispatch_cost(d);
	if (derive_rule(t, &cost, out))
		return -1;
	if (!d || !d->small.kept)
		return 0;
	struct derived_rule *without = malloc(sizeof *without);
	if (!without)
		return -1;
	*without = *out;
	int cells = small_flat_cells(out, 1), harms = cells && variant_harms(t, out, without);
	free(without);
	if (!cells || harms) {
		snprintf(out->note, sizeof out->note,
			 "The archive's small trial kept %s, but %s: the archive contradicts its own points.",
			 strategy_name[STRATEGY_TRIAL_TO],
			 cells ? "it loses to every copy forward beyond the noise at a point of the grid, or was not "
				 "measured there"
			       : "the rule has no cell to put it in");
		return -1;
	}
	/* rule_regret (variant_harms) kept the note: say what changed. */
	size_t len = strnlen(out->note, sizeof out->note - 1);
	snprintf(out->note + len, sizeof out->note - len,
		 " %s copies for %s: the table with it took %.2f ticks a call on random sizes against %.2f without "
		 "it (sorted, %.2f against %.2f, and every copy forward %.2f).",
		 strategy_name[STRATEGY_TRIAL_TO], strategy_name[STRATEGY_TRIAL_FROM], d->small.with.random,
		 d->small.without.random, d->small.with.sorted, d->small.without.sorted, d->small.baseline_sorted);
	return 0;
}

int trials_kept(const struct timings *t, const struct dispatch_run *d, struct derived_rule *out)
{
	if (!d || !d->measured || d->chosen != CHOSE_BASELINE)
		return derive_trialled(t, d, out) ? -1 : 0;
	if (d->shaped.kept) {
		if (derive_trialled(t, d, out))
			return -1;
		size_t len = strnlen(out->note, sizeof out->note - 1);
		snprintf(out->note + len, sizeof out->note - len,
			 " Every candidate lost to every copy %s; the trials shaped the fastest on random sizes (%g times "
			 "the band cost) to this table, which took %.2f ticks a call on random sizes against %.2f, and "
			 "%.2f against %.2f sorted.",
			 strategy_name[BASELINE_STRATEGY], d->shaped.from, d->shaped.shaped.random,
			 d->shaped.baseline.random, d->shaped.shaped.sorted, d->shaped.baseline.sorted);
		return 0;
	}
	if (!d->classes.kept)
		return 1;
	int rc = classes_trial_table(t, d, out);
	if (rc > 0)
		snprintf(out->note, sizeof out->note,
			 "The archive's classes trial kept a table, but no class of the trials' table copies other than "
			 "%s: the archive contradicts its own points.",
			 strategy_name[BASELINE_STRATEGY]);
	if (rc)
		return -1;
	snprintf(out->note, sizeof out->note,
		 "Every copy %s but in the classes where %s stalls: every candidate, and the table the trials "
		 "shaped, was slower than every copy %s on the random-size workload or its sorted control; this "
		 "one, the trials' table with zero and elsewhere copied %s, took %.2f ticks a call on random sizes "
		 "against %.2f, and %.2f against %.2f sorted (the classes trial). Against the best measured copy "
		 "the rule is at worst %.3fx, at the median %.3fx; against %s at worst %.3fx.",
		 strategy_name[BASELINE_STRATEGY], strategy_name[BASELINE_STRATEGY], strategy_name[BASELINE_STRATEGY],
		 strategy_name[BASELINE_STRATEGY], d->classes.table.random, d->classes.baseline.random,
		 d->classes.table.sorted, d->classes.baseline.sorted, out->worst_regret, out->median_regret,
		 strategy_name[BASELINE_STRATEGY], out->worst_vs_baseline);
	return 0;
}

void band_trials_text(struct buf *b, const struct dispatch_run *d)
{
	buf_printf(b, "trials %d\n", d->n_trials);
	for (int i = 0; i < d->n_trials; i++) {
		const struct band_trial *t = &d->trials[i];
		buf_printf(b, "trial %u %u %.2f %.2f %.2f %.2f %s\n", t->range.lo, t->range.hi, t->with.random,
			   t->with.sorted, t->without.random, t->without.sorted, t->merged ? "merged" : "kept");
	}
}

int band_trials_count(const char *line, struct dispatch_run *d, char *why, size_t why_size)
{
	char *end;
	if (strncmp(line, "trials ", 7) == 0) {
		long n = strtol(line + 7, &end, 10);
		if (end != line + 7 && !*end && n >= 0 && n <= DISPATCH_TRIALS_MAX) {
			d->n_trials = (int)n;
			return 0;
		}
	}
	snprintf(why, why_size, "expected 'trials N' with N in 0..%d, found '%.60s'", DISPATCH_TRIALS_MAX, line);
	return -1;
}

int band_trial_parse(const char *line, struct band_trial *t, char *why, size_t why_size)
{
	unsigned int lo, hi;
	int used = 0;
	const char *s = NULL;
	if (!strchr(line, '-') && sscanf(line, "trial %u %u %n", &lo, &hi, &used) == 2 && used > 0 && lo < hi)
		s = line + used;
	s = s ? ticks_then_space(s, &t->with.random) : NULL;
	s = s ? ticks_then_space(s, &t->with.sorted) : NULL;
	s = s ? ticks_then_space(s, &t->without.random) : NULL;
	s = s ? ticks_then_space(s, &t->without.sorted) : NULL;
	if (!s || (strcmp(s, "merged") != 0 && strcmp(s, "kept") != 0)) {
		snprintf(why, why_size,
			 "expected 'trial LO HI WITH_RANDOM WITH_SORTED WITHOUT_RANDOM WITHOUT_SORTED merged|kept' (LO < HI), "
			 "found '%.80s'",
			 line);
		return -1;
	}
	t->range = (struct length_range){lo, hi};
	t->merged = strcmp(s, "merged") == 0;
	return 0;
}

void small_trial_text(struct buf *b, const struct dispatch_run *d)
{
	const struct small_trial *v = &d->small;
	if (!v->tried) {
		buf_printf(b, "small_trial none\n");
		return;
	}
	buf_printf(b, "small_trial %.2f %.2f %.2f %.2f %.2f %s\n", v->with.random,
		   v->with.sorted, v->without.random, v->without.sorted, v->baseline_sorted, v->kept ? "kept" : "not");
}

int small_trial_parse(const char *line, struct small_trial *v, char *why, size_t why_size)
{
	static const char key[] = "small_trial";
	size_t k = sizeof key - 1;
	memset(v, 0, sizeof *v);
	if (strncmp(line, key, k) == 0 && strcmp(line + k, " none") == 0)
		return 0;
	double x[5];
	const char *s = strncmp(line, key, k) == 0 && line[k] == ' ' ? line + k + 1 : NULL;
	for (int i = 0; s && i < 5; i++)
		s = ticks_then_space(s, &x[i]);
	if (!s || (strcmp(s, "kept") != 0 && strcmp(s, "not") != 0)) {
		snprintf(why, why_size,
			 "expected 'small_trial none' or 'small_trial WITH_RANDOM WITH_SORTED WITHOUT_RANDOM "
			 "WITHOUT_SORTED BASELINE_SORTED kept|not', found '%.80s'",
			 line);
		return -1;
	}
	*v = (struct small_trial){1, {x[0], x[1]}, {x[2], x[3]}, x[4], strcmp(s, "kept") == 0};
	return 0;
}

void shaped_trial_text(struct buf *b, const struct dispatch_run *d)
{
	const struct shaped_trial *v = &d->shaped;
	if (!v->started) {
		buf_printf(b, "shaped none\n");
		return;
	}
	buf_printf(b, "shaped %g %.2f %.2f %.2f %.2f %s\n", v->from, v->shaped.random, v->shaped.sorted,
		   v->baseline.random, v->baseline.sorted, v->kept ? "kept" : "not");
}

/* "MULTIPLE ": a candidate's multiple and one space; the rest of the line
 * after it, or NULL. */
static const char *candidate_then_space(const char *s, double *m)
{
	for (int i = 0; i < DISPATCH_CANDIDATES; i++) {
		char want[32];
		int n = snprintf(want, sizeof want, "%g ", candidate_multiples[i]);
		if (strncmp(s, want, (size_t)n) == 0) {
			*m = candidate_multiples[i];
			return s + n;
		}
	}
	return NULL;
}

int shaped_trial_parse(const char *line, struct dispatch_run *d, char *why, size_t why_size)
{
	static const char key[] = "shaped";
	size_t k = sizeof key - 1;
	struct shaped_trial *v = &d->shaped;
	memset(v, 0, sizeof *v);
	if (strncmp(line, key, k) == 0 && strcmp(line + k, " none") == 0) {
		if (d->chosen != CHOSE_BASELINE || !d->measured)
			return 0;
		snprintf(why, why_size, "'shaped none' where the baseline was chosen: a probe of this version runs the "
					"shaped trial there");
		return -1;
	}
	double x[4];
	const char *s = strncmp(line, key, k) == 0 && line[k] == ' ' ? candidate_then_space(line + k + 1, &v->from) : NULL;
	for (int i = 0; s && i < 4; i++)
		s = ticks_then_space(s, &x[i]);
	if (!s || (strcmp(s, "kept") != 0 && strcmp(s, "not") != 0)) {
		snprintf(why, why_size,
			 "expected 'shaped none' or 'shaped MULTIPLE SHAPED_RANDOM SHAPED_SORTED BASELINE_RANDOM "
			 "BASELINE_SORTED kept|not' (MULTIPLE a candidate's), found '%.80s'",
			 line);
		memset(v, 0, sizeof *v);
		return -1;
	}
	if (d->chosen != CHOSE_BASELINE) {
		snprintf(why, why_size, "a shaped trial where a candidate was chosen (%g): only a run that kept the "
					"baseline shapes one",
			 d->chosen);
		memset(v, 0, sizeof *v);
		return -1;
	}
	v->started = 1;
	v->shaped = (struct workload_ticks){x[0], x[1]};
	v->baseline = (struct workload_ticks){x[2], x[3]};
	v->kept = strcmp(s, "kept") == 0;
	return 0;
}

int classes_trial_table(const struct timings *t, const struct dispatch_run *d, struct derived_rule *out)
{
	return derive_trialled(t, d, out) ? -1 : classes_only(t, out);
}

void classes_trial_text(struct buf *b, const struct dispatch_run *d)
{
	const struct classes_trial *v = &d->classes;
	if (!v->tried) {
		buf_printf(b, "classes none\n");
		return;
	}
	buf_printf(b, "classes %.2f %.2f %.2f %.2f %s\n", v->table.random, v->table.sorted, v->baseline.random,
		   v->baseline.sorted, v->kept ? "kept" : "not");
}

int classes_trial_parse(const char *line, struct dispatch_run *d, char *why, size_t why_size)
{
	static const char key[] = "classes ";
	struct classes_trial *v = &d->classes;
	memset(v, 0, sizeof *v);
	if (strcmp(line, "classes none") == 0)
		return 0;
	double x[4];
	const char *s = strncmp(line, key, sizeof key - 1) == 0 ? line + sizeof key - 1 : NULL;
	for (int i = 0; s && i < 4; i++)
		s = ticks_then_space(s, &x[i]);
	if (!s || (strcmp(s, "kept") != 0 && strcmp(s, "not") != 0)) {
		snprintf(why, why_size,
			 "expected 'classes none' or 'classes TABLE_RANDOM TABLE_SORTED BASELINE_RANDOM BASELINE_SORTED "
			 "kept|not', found '%.80s'",
			 line);
		return -1;
	}
	if (dispatch_keeps_table(d)) {
		snprintf(why, why_size, "a classes trial where a table was kept: only a run that keeps every copy forward "
					"tries one");
		return -1;
	}
	v->tried = 1;
	v->table = (struct workload_ticks){x[0], x[1]};
	v->baseline = (struct workload_ticks){x[2], x[3]};
	v->kept = strcmp(s, "kept") == 0;
	return 0;
}
