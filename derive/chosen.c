/* The rule a run kept (chosen.h): the search's table, or the trials' of
 * an older probe, as its gate repaired it, or the baseline. */
#include "chosen.h"

#include "grid.h"
#include "repair.h"
#include "search.h"
#include "trials.h"

#include <stdio.h>
#include <string.h>

/* The table the run kept before the gate, from ranked[0..n) where ranked
 * is not NULL; 1 where it kept none. */
static int kept_table(const struct timings *t, const struct dispatch_run *d, const struct search_entry *ranked, int n,
		      struct derived_rule *out)
{
	if (d && d->searched)
		return ranked ? search_chosen_ranked(t, d, ranked, n, out) : search_chosen(t, d, out);
	return trials_kept(t, d, out);
}

/* The gate's repairs replayed on the kept table out, in the order the
 * probe made them. 1 where the gate leaves no table: it refused after
 * every repair it could make, or its probe refused rather than repaired.
 * Such an archive records only the worst point; a repair of that point
 * alone, never timed, could not show that the others passed, so the
 * refusal stands until the core is probed again. */
static int gate_repairs(const struct timings *t, const struct dispatch_run *d, struct derived_rule *out)
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

int derive_chosen(const struct timings *t, const struct dispatch_run *d, struct derived_rule *out)
{
	return derive_chosen_ranked(t, d, NULL, 0, out);
}

int derive_chosen_ranked(const struct timings *t, const struct dispatch_run *d, const struct search_entry *ranked,
			 int n, struct derived_rule *out)
{
	int rc = kept_table(t, d, ranked, n, out);
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
