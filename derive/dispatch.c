#include "dispatch.h"
#include "grid.h"
#include "repair.h"
#include "search.h"

#include "../common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int dispatch_bands[DISPATCH_TABLES] = {1, 2, 4, 8};
/* 0 charges the flat BAND_PRICE only, as the derivation did before it
 * measured the dispatch; 4 is a table that splits only for large gains. */
const double candidate_multiples[DISPATCH_CANDIDATES] = {0, 1, 4};

double dispatch_band_ticks(const struct dispatch_run *d)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = DISPATCH_TABLES;
	for (int i = 0; i < DISPATCH_TABLES; i++) {
		double x = dispatch_bands[i], y = d->tables[i].random - d->tables[i].sorted;
		sx += x, sy += y, sxx += x * x, sxy += x * y;
	}
	double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
	return slope > 0 ? slope : 0;
}

double dispatch_start(const struct dispatch_run *d)
{
	return d->chosen != CHOSE_BASELINE ? d->chosen : d->shaped.started ? d->shaped.from : CHOSE_BASELINE;
}

struct derive_cost dispatch_cost(const struct dispatch_run *d)
{
	if (!d || !d->measured)
		return (struct derive_cost){.band_ticks = DERIVE_BAND_TICKS_DEFAULT, .multiple = 1};
	double start = dispatch_start(d);
	struct derive_cost c = {
		.band_ticks = dispatch_band_ticks(d), .multiple = start == CHOSE_BASELINE ? 1 : start, .measured = 1};
	for (int i = 0; i < d->n_trials && c.n_unsplit < DERIVE_UNSPLIT_MAX; i++)
		if (d->trials[i].merged)
			c.unsplit[c.n_unsplit++] = d->trials[i].range;
	return c;
}

void derived_baseline(struct derived_rule *r)
{
	memset(r, 0, sizeof *r);
	r->zero_mod = 4096;
	r->n_bands = 1;
	r->bands[0].hi = BAND_UNBOUNDED;
	for (int c = 0; c < N_DISTANCE_CLASSES; c++)
		r->bands[0].strategy[c] = BASELINE_STRATEGY;
}

int derive_trialled(const struct table *t, const struct dispatch_run *d, struct derived_rule *out)
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
	int cells = small_trial_cells(out, 1), harms = cells && small_trial_harms(t, out, without);
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
	/* rule_regret (small_trial_harms) kept the note: say what changed. */
	size_t len = strnlen(out->note, sizeof out->note - 1);
	snprintf(out->note + len, sizeof out->note - len,
		 " %s copies for %s: the table with it took %.2f ticks a call on random sizes against %.2f without "
		 "it (sorted, %.2f against %.2f, and every copy forward %.2f).",
		 strategy_name[STRATEGY_TRIAL_TO], strategy_name[STRATEGY_TRIAL_FROM], d->small.with.random,
		 d->small.without.random, d->small.with.sorted, d->small.without.sorted, d->small.baseline_sorted);
	return 0;
}

/* The table the run kept before the gate: the trials' table of the kept
 * candidate or the shaped table, or the classes table; 1 where it kept
 * none. */
static int kept_table(const struct table *t, const struct dispatch_run *d, struct derived_rule *out)
{
	if (d && d->searched)
		return search_chosen(t, d, out);
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

/* The gate's repairs replayed on the kept table out, in the order the
 * probe made them. 1 where the gate leaves no table: it refused after
 * every repair it could make, or its probe refused rather than repaired.
 * Such an archive records only the worst point; a repair of that point
 * alone, never timed, could not show that the others passed, so the
 * refusal stands until the core is probed again. */
static int gate_repairs(const struct table *t, const struct dispatch_run *d, struct derived_rule *out)
{
	char why[256];
	if (!d || !d->gate.tried)
		return 0;
	if (d->gate.refused)
		return 1;
	for (int i = 0; i < d->n_repairs; i++)
		if (repair_apply(out, &d->repairs[i], why, sizeof why)) {
			snprintf(out->note, sizeof out->note, "The archive records %s: it contradicts its own table.", why);
			return -1;
		}
	if (!d->n_repairs)
		return 0;
	if (rule_regret(t, out))
		return -1;
	size_t len = strnlen(out->note, sizeof out->note - 1);
	snprintf(out->note + len, sizeof out->note - len,
		 " The grid gate repaired %d cell%s where the table lost to every copy %s as it ships, and passed the "
		 "repaired table (worst %.3fx at %u bytes, d = %u):",
		 d->n_repairs, d->n_repairs == 1 ? "" : "s", strategy_name[BASELINE_STRATEGY], d->gate.worst,
		 d->gate.length, d->gate.distance);
	for (int i = 0; i < d->n_repairs; i++) {
		const struct grid_repair *p = &d->repairs[i];
		len = strnlen(out->note, sizeof out->note - 1);
		snprintf(out->note + len, sizeof out->note - len,
			 "%s %u..%u bytes, class %s, copy by %s, not %s (%.3fx at %u bytes, d = %u)", i ? ";" : "", p->lo,
			 p->hi, class_names[rule_class(out, p->distance)], strategy_name[p->to], strategy_name[p->from],
			 p->ratio, p->length, p->distance);
	}
	say(out, ".");
	say_kept(out);
	return 0;
}

int derive_chosen(const struct table *t, const struct dispatch_run *d, struct derived_rule *out)
{
	int rc = kept_table(t, d, out);
	if (rc == 0)
		rc = gate_repairs(t, d, out);
	if (rc == 0 && d && d->unchecked && unchecked_keep_long(t, out))
		return -1;
	if (rc <= 0)
		return rc;
	int refused = d->gate.tried && d->gate.refused;
	/* Charged as when no trial ran: the cost the rule records is the
	 * baseline's, not the shaped table's that lost. */
	struct dispatch_run untried = *d;
	untried.shaped.started = 0, untried.n_trials = 0;
	struct derive_cost cost = dispatch_cost(&untried);
	/* The derivation once more, for the noise its ties were judged by. */
	if (derive_rule(t, &cost, out))
		return -1;
	double noise = out->noise;
	derived_baseline(out);
	out->noise = noise;
	out->cost = cost;
	if (rule_regret(t, out))
		return -1;
	if (refused)
		snprintf(out->note, sizeof out->note,
			 "Every copy %s: the table the probe kept, compiled, was slower than every copy %s as it ships "
			 "beyond the noise on make bench's grid, %.3fx at %u bytes, d = %u (the grid gate), %s. Against "
			 "the best measured copy the rule is at worst %.3fx, at the median %.3fx; against %s at worst "
			 "%.3fx.",
			 strategy_name[BASELINE_STRATEGY], strategy_name[BASELINE_STRATEGY], d->gate.worst, d->gate.length,
			 d->gate.distance,
			 d->records_repairs ? "after every repair it could make"
					    : "and its probe did not repair (a probe that repairs may keep a table)",
			 out->worst_regret, out->median_regret, strategy_name[BASELINE_STRATEGY], out->worst_vs_baseline);
	else if (d->searched)
		snprintf(out->note, sizeof out->note,
			 "Every copy %s: %s. Against the best measured copy the rule is at worst %.3fx, at the median %.3fx; "
			 "against %s at worst %.3fx.",
			 strategy_name[BASELINE_STRATEGY],
			 d->n_checks ? "every table the search ranked and checked, compiled, was slower than every copy "
				       "forward as it ships on the random-size workload or its sorted control, beyond the noise"
				     : "the measurements derive no table that copies other than every copy forward",
			 out->worst_regret, out->median_regret, strategy_name[BASELINE_STRATEGY], out->worst_vs_baseline);
	else
		snprintf(out->note, sizeof out->note,
			 "Every copy %s: on the random-size workload or its sorted control every table derived from the "
			 "measurements was slower than %s, beyond the noise. Against the best measured copy the rule is at "
			 "worst %.3fx, at the median %.3fx; against %s at worst %.3fx.",
			 strategy_name[BASELINE_STRATEGY], strategy_name[BASELINE_STRATEGY], out->worst_regret,
			 out->median_regret, strategy_name[BASELINE_STRATEGY], out->worst_vs_baseline);
	return 0;
}

void dispatch_text(struct buf *b, const struct dispatch_run *d, int candidates)
{
	for (int i = 0; i < DISPATCH_TABLES; i++)
		buf_printf(b, "dispatch %d %.2f %.2f\n", dispatch_bands[i], d->tables[i].random, d->tables[i].sorted);
	if (!candidates)
		return;
	for (int i = 0; i < DISPATCH_CANDIDATES; i++)
		buf_printf(b, "candidate %g %.2f %.2f\n", candidate_multiples[i], d->candidates[i].random,
			   d->candidates[i].sorted);
	buf_printf(b, "baseline %.2f %.2f\n", d->baseline.random, d->baseline.sorted);
	if (d->chosen == CHOSE_BASELINE)
		buf_printf(b, "chosen baseline\n");
	else
		buf_printf(b, "chosen %g\n", d->chosen);
}

/* "RANDOM SORTED": two positive numbers of ticks, and nothing after. */
static int two_times(const char *s, struct workload_ticks *w)
{
	char *end;
	w->random = strtod(s, &end);
	if (end == s || *end != ' ')
		return -1;
	s = end + 1;
	w->sorted = strtod(s, &end);
	return end == s || *end || !isfinite(w->random) || !isfinite(w->sorted) || w->random <= 0 ||
	       w->sorted <= 0 || w->random > 1e9 || w->sorted > 1e9;
}

/* "KEY NUMBER REST": REST, where the number is want; NULL otherwise. */
static const char *keyed_number(const char *line, const char *key, double want)
{
	size_t k = strlen(key);
	if (strncmp(line, key, k) != 0 || line[k] != ' ')
		return NULL;
	char *end;
	double v = strtod(line + k + 1, &end);
	return end != line + k + 1 && *end == ' ' && v == want ? end + 1 : NULL;
}

int dispatch_parse(const char *line, int k, struct dispatch_run *d, char *why, size_t why_size)
{
	char want[64];
	const char *rest = NULL;
	struct workload_ticks *w = NULL;
	if (k < DISPATCH_TABLES) {
		snprintf(want, sizeof want, "dispatch %d RANDOM SORTED", dispatch_bands[k]);
		rest = keyed_number(line, "dispatch", dispatch_bands[k]), w = &d->tables[k];
	} else if (k < DISPATCH_TABLES + DISPATCH_CANDIDATES) {
		double m = candidate_multiples[k - DISPATCH_TABLES];
		snprintf(want, sizeof want, "candidate %g RANDOM SORTED", m);
		rest = keyed_number(line, "candidate", m), w = &d->candidates[k - DISPATCH_TABLES];
	} else if (k == DISPATCH_TABLES + DISPATCH_CANDIDATES) {
		snprintf(want, sizeof want, "baseline RANDOM SORTED");
		rest = strncmp(line, "baseline ", 9) == 0 ? line + 9 : NULL, w = &d->baseline;
	} else {
		d->chosen = strcmp(line, "chosen baseline") == 0 ? CHOSE_BASELINE : 0;
		for (int i = 0; i < DISPATCH_CANDIDATES && d->chosen != CHOSE_BASELINE; i++) {
			snprintf(want, sizeof want, "chosen %g", candidate_multiples[i]);
			if (strcmp(line, want) == 0)
				d->chosen = candidate_multiples[i], rest = line;
		}
		if (d->chosen == CHOSE_BASELINE || rest) {
			d->measured = 1;
			return 0;
		}
		snprintf(why, why_size, "expected 'chosen baseline' or 'chosen M', M a candidate's multiple, found '%.40s'",
			 line);
		return -1;
	}
	if (rest && two_times(rest, w) == 0)
		return 0;
	snprintf(why, why_size, "expected '%s' (ticks per call, positive), found '%.40s'", want, line);
	return -1;
}
