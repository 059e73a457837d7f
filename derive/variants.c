/* Tables made of a derived one (variants.h): small_flat in small's cells
 * (the small trial), the branch-light copies, and the stall classes alone. */
#include "variants.h"

#include "grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

int variant_harms(const struct timings *t, struct derived_rule *with, const struct derived_rule *without)
{
	return rule_regret(t, with) != 0 ||
	       with->worst_vs_baseline > fmax(1 + without->noise, without->worst_vs_baseline);
}

/* Each copy that compares the length inside (of) and the one of the same
 * reach that does not (by). */
static const struct {
	int of, by;
} pairs[BRANCH_LIGHT_PAIRS] = {
	{STRATEGY_SMALL, STRATEGY_SMALL_FLAT},
	{STRATEGY_AVX512_MEDIUM, STRATEGY_AVX512_MASKED_WIDE},
};

static int has(const struct band *b, int s)
{
	for (int c = 0; c < N_DISTANCE_CLASSES; c++)
		if (b->strategy[c] == s)
			return 1;
	return 0;
}

/* r with pair p's copy in its cells: how many there were. A band that
 * starts where the copy serves and ends past its last length is split
 * there, room allowing, so that the copy takes the lengths it serves. */
static int substitute(struct derived_rule *r, int p)
{
	int cells = 0;
	const struct strategy *by = strategy_of(pairs[p].by);
	for (int i = 0; i < r->n_bands; i++) {
		struct band *b = &r->bands[i];
		if (!strategy_serves(pairs[p].by, b->lo) || !has(b, pairs[p].of))
			continue;
		if (!strategy_serves(pairs[p].by, b->hi)) {
			if (r->n_bands == MAX_BANDS)
				continue;
			memmove(b + 1, b, (size_t)(r->n_bands - i) * sizeof *b);
			r->n_bands++;
			b->hi = (unsigned int)by->max_n, b[1].lo = b->hi + 1;
		}
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			if (b->strategy[c] == pairs[p].of)
				b->strategy[c] = pairs[p].by, cells++;
	}
	return cells;
}

unsigned int branch_light(const struct timings *t, struct derived_rule *r)
{
	struct derived_rule *given = malloc(2 * sizeof *given), *with = given + 1;
	unsigned int kept = 0;
	if (!given)
		return 0;
	*given = *r;
	for (int p = 0; p < BRANCH_LIGHT_PAIRS; p++) {
		*with = *r;
		if (substitute(with, p) && !variant_harms(t, with, given))
			*r = *with, kept |= 1u << p;
	}
	free(given);
	if (kept)
		merge_alike(r);
	return kept;
}

void branch_light_say(unsigned int mask, char *out, size_t size)
{
	size_t len = 0;
	out[0] = 0;
	for (int p = 0; p < BRANCH_LIGHT_PAIRS && len < size; p++)
		if (mask >> p & 1)
			len += (size_t)snprintf(out + len, size - len, "%s%s in %s's cells", len ? " and " : "",
						 strategy_name[pairs[p].by], strategy_name[pairs[p].of]);
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
