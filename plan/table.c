/* Classes, choices and a table at an isa level (table.h). */
#include "table.h"

#include <string.h>

enum distance_class plan_class(struct class_bounds b, unsigned int d)
{
	d %= 4096;
	if (d % (b.zero_mod ? (unsigned int)b.zero_mod : 4096u) == 0)
		return CLASS_ZERO;
	if (d <= b.above_max)
		return CLASS_ABOVE;
	if (d <= b.near_max)
		return CLASS_NEAR;
	if (b.below_max && d >= 4096 - b.below_max)
		return CLASS_BELOW;
	return CLASS_ELSEWHERE;
}

int plan_band_choice(const struct band *bands, int n_bands, struct class_bounds b, unsigned int n, unsigned int d)
{
	for (int i = 0; i < n_bands; i++)
		if (n >= bands[i].lo && n <= bands[i].hi)
			return bands[i].strategy[plan_class(b, d)];
	return BASELINE_STRATEGY;
}

int plan_choice(const struct copy_table *t, unsigned int n, unsigned int d)
{
	return plan_band_choice(t->bands, t->n_bands, t->classes, n, d);
}

int plan_holds_length(const struct copy_table *t, unsigned int n)
{
	for (int i = 0; i < t->n_bands; i++)
		if (n >= t->bands[i].lo && n <= t->bands[i].hi)
			return 1;
	return 0;
}

/* A run of lengths lo..hi that one strategy copies; hi BAND_UNBOUNDED: no
 * bound. (Not a piece of plan/pieces.h, which is a part of a copy's body.) */
struct length_run {
	unsigned int lo, hi;
	int strategy;
};

/* What runs where a table says s for lengths lo..hi at isa level isa: up
 * to three runs, lowest first. */
static int runs(int s, unsigned int lo, unsigned int hi, int isa, int align_dst, struct length_run out[3])
{
	while (strategy_catalogue[s].isa > isa)
		s = strategy_catalogue[s].fallback;
	if (strategy_catalogue[s].aligns && align_dst == 0)
		s = strategy_catalogue[s].fallback;
	unsigned int min_n = (unsigned int)strategy_catalogue[s].min_n;
	unsigned int max_n = strategy_catalogue[s].max_n < 0 ? BAND_UNBOUNDED : (unsigned int)strategy_catalogue[s].max_n;
	int k = 0;
	if (lo < min_n)
		out[k++] = (struct length_run){lo, hi < min_n - 1 ? hi : min_n - 1, BASELINE_STRATEGY};
	unsigned int a = lo > min_n ? lo : min_n, b = hi < max_n ? hi : max_n;
	if (a <= b)
		out[k++] = (struct length_run){a, b, s};
	if (hi > max_n)
		out[k++] = (struct length_run){lo > max_n + 1 ? lo : max_n + 1, hi, BASELINE_STRATEGY};
	return k;
}

static int same_bounds(struct class_bounds a, struct class_bounds b)
{
	return a.above_max == b.above_max && a.near_max == b.near_max && a.below_max == b.below_max &&
	       a.zero_mod == b.zero_mod;
}

static int same_cells(const struct band *a, const struct band *b)
{
	return memcmp(a->strategy, b->strategy, sizeof a->strategy) == 0;
}

/* Appends band b to out, or extends out's last band where it copies alike. */
static void append(struct copy_table *out, const struct band *b)
{
	struct band *last = out->n_bands ? &out->bands[out->n_bands - 1] : NULL;
	if (last && same_cells(last, b))
		last->hi = b->hi;
	else
		out->bands[out->n_bands++] = *b;
}

void plan_at_isa(const struct copy_table *t, int isa, struct copy_table *out)
{
	out->classes = t->classes;
	out->align_dst = t->align_dst;
	out->n_bands = 0;
	/* A stand-in was chosen on its own timings: its fallback's are not
	 * its, and the fallback may lose where the stand-in tied (measured:
	 * see docs/notebook/measurements-2026-12.md#a-stand-ins-fallback), so
	 * where the CPU cannot run it the flavor's stands in. */
	for (int way = 0; way < 2; way++) {
		int s = t->stand_in[way] - 1;
		int runs_here = s >= 0 && strategy_catalogue[s].isa <= isa;
		out->stand_in[way] = runs_here ? s + 1 : 0;
		out->stand_in_max[way] = runs_here ? t->stand_in_max[way] : 0;
	}
	for (int i = 0; i < t->n_bands; i++) {
		const struct band *b = &t->bands[i];
		struct length_run run[N_DISTANCE_CLASSES][3];
		int n[N_DISTANCE_CLASSES];
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			n[c] = runs(b->strategy[c], b->lo, b->hi, isa, t->align_dst, run[c]);
		/* Every length where some class changes strategy starts a band. */
		unsigned int from = b->lo;
		for (;;) {
			struct band cut = {from, b->hi, {0}};
			for (int c = 0; c < N_DISTANCE_CLASSES; c++)
				for (int k = 0; k < n[c]; k++) {
					if (run[c][k].lo <= from && run[c][k].hi >= from)
						cut.strategy[c] = run[c][k].strategy;
					if (run[c][k].lo > from && run[c][k].lo - 1 < cut.hi)
						cut.hi = run[c][k].lo - 1;
				}
			append(out, &cut);
			if (cut.hi == b->hi)
				break;
			from = cut.hi + 1;
		}
	}
}

int plan_copies_forward(const struct copy_table *t)
{
	for (int i = 0; i < t->n_bands; i++)
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			if (t->bands[i].strategy[c] != BASELINE_STRATEGY)
				return 0;
	return 1;
}

int plan_same_table(const struct copy_table *a, const struct copy_table *b)
{
	if (!same_bounds(a->classes, b->classes) || a->align_dst != b->align_dst ||
	    a->n_bands != b->n_bands || memcmp(a->stand_in, b->stand_in, sizeof a->stand_in) != 0 ||
	    memcmp(a->stand_in_max, b->stand_in_max, sizeof a->stand_in_max) != 0)
		return 0;
	for (int i = 0; i < a->n_bands; i++)
		if (a->bands[i].lo != b->bands[i].lo || a->bands[i].hi != b->bands[i].hi ||
		    !same_cells(&a->bands[i], &b->bands[i]))
			return 0;
	return 1;
}

int plan_may_stand_in(int s, int way)
{
	const struct strategy *c = &strategy_catalogue[s];
	return c->defers || ((int)c->direction == way && !c->streams && !c->aligns);
}

int plan_overlap_safe(const struct copy_table *t, int strategy, int way, int defer)
{
	const struct strategy *s = &strategy_catalogue[strategy];
	if (s->direction == DIR_ANY)
		return strategy;
	if (t && t->stand_in[way])
		return t->stand_in[way] - 1;
	if (defer >= 0)
		return defer;
	if ((int)s->direction == way)
		return strategy;
	for (int o = 0; o < N_COPY_STRATEGIES; o++)
		if (strategy_catalogue[o].isa == s->isa && !strategy_catalogue[o].defers && plan_may_stand_in(o, way))
			return o;
	return -1;
}

int plan_widest_isa(const struct copy_table *t)
{
	int widest = 0;
	for (int i = 0; i < t->n_bands; i++)
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			if (strategy_catalogue[t->bands[i].strategy[c]].isa > widest)
				widest = strategy_catalogue[t->bands[i].strategy[c]].isa;
	for (int way = 0; way < 2; way++)
		if (t->stand_in[way] && strategy_catalogue[t->stand_in[way] - 1].isa > widest)
			widest = strategy_catalogue[t->stand_in[way] - 1].isa;
	return widest;
}
