/* Each split of the kept table tried away, then small's cells copied by
 * small_flat; where every candidate lost, the table so shaped against
 * every copy forward (band_trials.h). */
#include "band_trials.h"

#include "placed.h"

#include <stdio.h>
#include <string.h>

/* What the timers read: the flavor, the workload's streams (made at the
 * first trial) and the noise its line judges the trial by. */
struct timing {
	const struct probe_flavor *f;
	struct streams *s;
	double noise;
};

/* A trial's n tables compiled and timed at PLACES places, and extra[0..
 * n_extra) as they are (time_placed), the streams made at the first trial.
 * As time_tables does, a forced table first: an aligning strategy aligns
 * as the rule says. */
static int time_trial(struct timing *x, const struct derived_rule *rules, int n, const copy_fn *extra, int n_extra,
		      struct workload_ticks *out)
{
	x->f->force_strategy(BASELINE_STRATEGY);
	if (!x->s)
		x->s = streams_new();
	return time_placed(x->f, x->s, rules, n, 0, extra, n_extra, out);
}

/* The two tables, with (rules[0]) and without (rules[1]) the split, each
 * timed in turns with the forward routine, not with the other
 * (time_placed; band_trial_timer). */
static int time_pair(void *ctx, const struct derived_rule rules[2], struct band_trial *trial)
{
	struct timing *x = ctx;
	struct workload_ticks times[2];
	if (time_trial(x, rules, 2, NULL, 0, times))
		return -1;
	trial->with = times[0], trial->without = times[1];
	printf("  band trial: %u..%u whole or split: %.2f ticks a call split against %.2f whole on random sizes, "
	       "%.2f against %.2f sorted: %s\n",
	       trial->range.lo, trial->range.hi, trial->with.random, trial->without.random, trial->with.sorted,
	       trial->without.sorted, band_trial_merges(trial, x->noise) ? "kept whole" : "the split kept");
	return 0;
}

int try_band_splits(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise)
{
	struct timing x = {f, NULL, noise};
	int rc = band_trials_run(t, d, noise, workload_longest(), time_pair, &x);
	if (x.s)
		streams_free(x.s);
	return rc;
}

/* The kept table with the substitute (rules[0]) and without it (rules[1]),
 * and every copy forward as it ships, each timed in turns with the
 * forward routine, not with each other (time_placed; small_trial_timer). */
static int time_small(void *ctx, const struct derived_rule rules[2], struct small_trial *v)
{
	struct timing *x = ctx;
	struct workload_ticks times[3];
	copy_fn baseline = x->f->baseline_copy();
	if (time_trial(x, rules, 2, &baseline, 1, times))
		return -1;
	v->with = times[0], v->without = times[1], v->baseline_sorted = times[2].sorted;
	printf("  small trial: %s for %s: %.2f ticks a call against %.2f on random sizes, %.2f against %.2f sorted "
	       "(every copy forward %.2f): %s\n",
	       strategy_name[STRATEGY_TRIAL_TO], strategy_name[STRATEGY_TRIAL_FROM], v->with.random, v->without.random,
	       v->with.sorted, v->without.sorted, v->baseline_sorted,
	       small_trial_keeps(v, x->noise) ? "kept" : "not kept");
	return 0;
}

int try_small_flat(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise)
{
	struct timing x = {f, NULL, noise};
	int rc = small_trial_run(t, d, noise, time_small, &x);
	if (rc == 0 && !d->small.tried && dispatch_start(d) != CHOSE_BASELINE)
		printf("  small trial: not run: the table has no cell of %s, or there %s loses to every copy forward "
		       "at a point of the grid\n",
		       strategy_name[STRATEGY_TRIAL_FROM], strategy_name[STRATEGY_TRIAL_TO]);
	if (x.s)
		streams_free(x.s);
	return rc;
}

/* The shaped table and every copy forward as it ships, each timed in
 * turns with the forward routine, not with each other (time_placed;
 * shaped_trial_timer). */
static int time_shaped(void *ctx, const struct derived_rule *shaped, struct shaped_trial *v)
{
	struct timing *x = ctx;
	struct workload_ticks times[2];
	copy_fn baseline = x->f->baseline_copy();
	if (time_trial(x, shaped, 1, &baseline, 1, times))
		return -1;
	v->shaped = times[0], v->baseline = times[1];
	printf("  shaped trial: the table the trials made of the candidate at %g times the band cost: %.2f ticks a call "
	       "against %.2f for every copy forward on random sizes, %.2f against %.2f sorted: %s\n",
	       v->from, v->shaped.random, v->baseline.random, v->shaped.sorted, v->baseline.sorted,
	       shaped_trial_keeps(v, x->noise) ? "kept" : "not kept, every copy forward stays");
	return 0;
}

int try_shaped(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise)
{
	struct timing x = {f, NULL, noise};
	int rc = shaped_trial_run(t, d, noise, time_shaped, &x);
	if (x.s)
		streams_free(x.s);
	return rc;
}

/* The classes table and every copy forward as it ships, each timed in
 * turns with the forward routine (time_placed; classes_trial_timer). */
static int time_classes(void *ctx, const struct derived_rule *table, struct classes_trial *v)
{
	struct timing *x = ctx;
	struct workload_ticks times[2];
	copy_fn baseline = x->f->baseline_copy();
	if (time_trial(x, table, 1, &baseline, 1, times))
		return -1;
	v->table = times[0], v->baseline = times[1];
	printf("  classes trial: every copy forward but in the classes where the trials' table copies otherwise, %d "
	       "band%s: %.2f ticks a call against %.2f for every copy forward on random sizes, %.2f against %.2f "
	       "sorted: %s\n",
	       table->n_bands, table->n_bands == 1 ? "" : "s", v->table.random, v->baseline.random, v->table.sorted,
	       v->baseline.sorted, classes_trial_keeps(v, x->noise) ? "kept" : "not kept, every copy forward stays");
	return 0;
}

int try_classes(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise)
{
	memset(&d->classes, 0, sizeof d->classes);
	if (f->moves)
		return 0;
	struct timing x = {f, NULL, noise};
	int rc = classes_trial_run(t, d, noise, time_classes, &x);
	if (rc == 0 && !d->classes.tried && !dispatch_keeps_table(d))
		printf("  classes trial: not run: no class of the trials' table copies other than every copy forward\n");
	if (x.s)
		streams_free(x.s);
	return rc;
}
