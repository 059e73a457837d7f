/* Tables made of a derived one (variants.h): small_flat in small's cells,
 * and the stall classes alone. */
#include "variants.h"

#include <math.h>
#include <string.h>

int small_flat_cells(struct derived_rule *r, int substitute)
{
	int cells = 0;
	for (int i = 0; i < r->n_bands; i++) {
		struct band *b = &r->bands[i];
		if (!strategy_serves(STRATEGY_TRIAL_TO, b->lo) || !strategy_serves(STRATEGY_TRIAL_TO, b->hi))
			continue;
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			if (b->strategy[c] == STRATEGY_TRIAL_FROM) {
				cells++;
				if (substitute)
					b->strategy[c] = STRATEGY_TRIAL_TO;
			}
	}
	return cells;
}

int small_flat_harms(const struct timings *t, struct derived_rule *with, const struct derived_rule *without)
{
	return rule_regret(t, with) != 0 ||
	       with->worst_vs_baseline > fmax(1 + without->noise, without->worst_vs_baseline);
}

/* Whether class c of r holds a distance: the classes a core's copy may
 * stall in, which the trial keeps where their bounds hold any; zero and
 * elsewhere, where most calls fall, copy forward. */
static int stall_class(const struct derived_rule *r, int c)
{
	switch (c) {
	case CLASS_ABOVE: return r->above_max > 0;
	case CLASS_NEAR: return r->near_max > r->above_max;
	case CLASS_BELOW: return r->below_max > 0;
	default: return 0;
	}
}

int classes_only(const struct timings *t, struct derived_rule *r)
{
	int n = 0, differs = 0, reference = timings_reference(t);
	for (int i = 0; i < r->n_bands; i++) {
		struct band b = r->bands[i];
		for (int c = 0; c < N_DISTANCE_CLASSES; c++) {
			if (!stall_class(r, c))
				b.strategy[c] = reference;
			differs |= b.strategy[c] != reference;
		}
		if (n && memcmp(r->bands[n - 1].strategy, b.strategy, sizeof b.strategy) == 0)
			r->bands[n - 1].hi = b.hi;
		else
			r->bands[n++] = b;
	}
	r->n_bands = n;
	if (!differs)
		return 1;
	rule_align_dst(r);
	/* Each class keeps its bounds, so each of its points keeps the cell
	 * the derivation judged there, which lost to no copy forward beyond
	 * the noise. */
	return rule_regret(t, r) ? -1 : 0;
}
