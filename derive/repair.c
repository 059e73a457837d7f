/* Repair instead of refusal (repair.h). */
#include "repair.h"

#include "gate_effect.h"
#include "grid.h"
#include "grid_gate.h"
#include "model.h"

#include "../common/bench_grid.h"
#include "../common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The band of r that holds length n. */
static int band_of(const struct derived_rule *r, unsigned int n)
{
	for (int i = 0; i < r->n_bands; i++)
		if (n >= r->bands[i].lo && n <= r->bands[i].hi)
			return i;
	return r->n_bands - 1;
}

/* The fastest measured copy at the point of row p (a reference row). */
static double best_here(const struct timings *t, const struct row *p)
{
	double best = p->ticks;
	for (int s = 0; s < N_COPY_STRATEGIES; s++) {
		const struct row *q = timings_find(t, s, p->length, p->distance, ANY_MISALIGN);
		if (q && q->ticks > 0 && q->ticks < best)
			best = q->ticks;
	}
	return best;
}

/* Strategy s's mean log over the best at the cell's points, or HUGE_VAL
 * where s lacks a point or loses to the run's reference (timings_reference)
 * beyond the noise at one. */
static double cell_score(const struct timings *t, const struct band *b, const struct derived_rule *r, int cls, int s)
{
	double sum = 0, log_noise = log1p(r->noise);
	int reference = timings_reference(t);
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct row *p = &t->rows[i];
		if (p->strategy != reference || p->length < b->lo || p->length > b->hi ||
		    (int)rule_class(r, p->distance) != cls || !(p->ticks > 0))
			continue;
		const struct row *q = timings_find(t, s, p->length, p->distance, ANY_MISALIGN);
		if (!q || !(q->ticks > 0) || log(q->ticks / p->ticks) > log_noise)
			return HUGE_VAL;
		sum += log(q->ticks / best_here(t, p));
		n++;
	}
	return n ? sum / (double)n : HUGE_VAL;
}

void repair_range(const struct derived_rule *r, unsigned int n, unsigned int *lo, unsigned int *hi)
{
	const struct band *b = &r->bands[band_of(r, n)];
	*lo = b->lo, *hi = b->hi;
	for (size_t i = 0; i < BENCH_GRID_LENGTHS; i++) {
		unsigned int g = (unsigned int)bench_grid_lengths[i];
		if (g < n && g + 1 > *lo)
			*lo = g + 1;
		if (g > n && g - 1 < *hi)
			*hi = g - 1;
	}
	/* Each end inside the band splits it: where the table has no room for
	 * the bands that makes, the range reaches the band's end, above first,
	 * then below, so that a full table repairs a wider cell rather than
	 * refuse: a table of MAX_BANDS bands that loses at one point would
	 * otherwise be refused whole for want of room (measured: see
	 * docs/notebook/measurements-2026-12.md#a-full-table-repairs-a-wider-cell). */
	int room = MAX_BANDS - r->n_bands;
	if ((*lo > b->lo) + (*hi < b->hi) > room)
		*hi = b->hi;
	if ((*lo > b->lo) > room)
		*lo = b->lo;
}

int repair_options(const struct timings *t, const struct derived_rule *r, unsigned int n, unsigned int d, int *out,
		   int max)
{
	struct band b = r->bands[band_of(r, n)];
	repair_range(r, n, &b.lo, &b.hi);
	int cls = (int)rule_class(r, d), now = b.strategy[cls], k = 0, reference = timings_reference(t);
	double score[N_COPY_STRATEGIES];
	int order[N_COPY_STRATEGIES];
	for (int s = 0; s < N_COPY_STRATEGIES; s++) {
		score[s] = HUGE_VAL;
		if (s == now || s == STRATEGY_TRIAL_TO || !strategy_serves(s, b.lo) || !strategy_serves(s, b.hi))
			continue;
		score[s] = cell_score(t, &b, r, cls, s);
		/* The reference serves every cell: it is what the check compares
		 * with, so it stays an option where it went unmeasured. */
		if (s == reference && score[s] == HUGE_VAL)
			score[s] = 1e9;
		if (score[s] < HUGE_VAL)
			order[k++] = s;
	}
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && score[order[j]] < score[order[j - 1]]; j--) {
			int x = order[j];
			order[j] = order[j - 1], order[j - 1] = x;
		}
	if (k > max)
		k = max;
	memcpy(out, order, (size_t)k * sizeof *out);
	return k;
}

int repair_apply(struct derived_rule *r, const struct grid_repair *p, char *why, size_t why_size)
{
	int i = band_of(r, p->length), cls = (int)rule_class(r, p->distance);
	struct band b = r->bands[i];
	if (b.strategy[cls] != p->from || p->lo > p->length || p->hi < p->length || p->lo < b.lo || p->hi > b.hi) {
		snprintf(why, why_size, "a repair of %u..%u bytes at %u bytes, d = %u, of %s, where the table's band is "
					"%u..%u and copies by %s",
			 p->lo, p->hi, p->length, p->distance, strategy_name[p->from], b.lo, b.hi,
			 strategy_name[b.strategy[cls]]);
		return -1;
	}
	/* The band split around the repaired lengths: at most two more. */
	struct band parts[3];
	int n = 0;
	if (p->lo > b.lo)
		parts[n] = b, parts[n].hi = p->lo - 1, n++;
	parts[n] = b, parts[n].lo = p->lo, parts[n].hi = p->hi, parts[n].strategy[cls] = p->to, n++;
	if (p->hi < b.hi)
		parts[n] = b, parts[n].lo = p->hi + 1, n++;
	if (r->n_bands + n - 1 > MAX_BANDS) {
		snprintf(why, why_size, "no room for a repair at %u bytes: the table has %d bands", p->length, r->n_bands);
		return -1;
	}
	memmove(&r->bands[i + n], &r->bands[i + 1], (size_t)(r->n_bands - i - 1) * sizeof *r->bands);
	memcpy(&r->bands[i], parts, (size_t)n * sizeof *parts);
	r->n_bands += n - 1;
	merge_alike(r);
	rule_align_dst(r);
	return 0;
}

unsigned int unchecked_supported_from(const struct timings *t, double noise)
{
	/* Each length's cheapest baseline copy, over its distances. */
	unsigned int *len = malloc((t->n ? t->n : 1) * sizeof *len);
	size_t nl = 0;
	unsigned int from = BAND_UNBOUNDED;
	if (!len)
		return from;
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].strategy == BASELINE_STRATEGY)
			len[nl++] = t->rows[i].length;
	qsort(len, nl, sizeof *len, cmp_uint);
	for (size_t k = nl; k-- > 0;) {
		if (k + 1 < nl && len[k] == len[k + 1])
			continue;
		double least = HUGE_VAL;
		for (size_t i = 0; i < t->n; i++)
			if (t->rows[i].strategy == BASELINE_STRATEGY && t->rows[i].length == len[k])
				least = fmin(least, t->rows[i].ticks);
		if (least * noise < TREE_TICKS_MAX)
			break;
		from = len[k];
	}
	free(len);
	return from;
}

int unchecked_keep_long(const struct timings *t, struct derived_rule *r)
{
	unsigned int from = unchecked_supported_from(t, r->noise);
	struct band out[MAX_BANDS + 1], forward = {.lo = 0};
	int m = 0, changed = 0;
	for (int c = 0; c < N_DISTANCE_CLASSES; c++)
		forward.strategy[c] = BASELINE_STRATEGY;
	if (from > 0) {
		forward.hi = from == BAND_UNBOUNDED ? BAND_UNBOUNDED : from - 1;
		out[m++] = forward;
	}
	for (int i = 0; i < r->n_bands; i++) {
		struct band b = r->bands[i];
		for (int c = 0; c < N_DISTANCE_CLASSES && b.lo < from; c++)
			changed |= b.strategy[c] != BASELINE_STRATEGY;
		if (from == BAND_UNBOUNDED || b.hi < from)
			continue;
		if (b.lo < from)
			b.lo = from;
		out[m++] = b;
	}
	if (m > MAX_BANDS) {
		snprintf(r->note, sizeof r->note,
			 "the table's cells from %u bytes, behind a band of every copy %s below them, are more than %d "
			 "bands",
			 from, strategy_name[BASELINE_STRATEGY], MAX_BANDS);
		return -1;
	}
	memcpy(r->bands, out, (size_t)m * sizeof *out);
	r->n_bands = m;
	merge_alike(r);
	rule_align_dst(r);
	if (rule_regret(t, r))
		return -1;
	if (from == BAND_UNBOUNDED)
		say(r, " This run's probe timed no compiled tree, and at no length does every copy %s take %.0f ticks "
		       "over the noise, the most a tree was measured to cost a call: every cell copies %s.",
		    strategy_name[BASELINE_STRATEGY], TREE_TICKS_MAX, strategy_name[BASELINE_STRATEGY]);
	else
		say(r, " This run's probe timed no compiled tree: only the cells from %u bytes are kept, where every "
		       "copy %s takes %.0f ticks over the noise or more, the most a tree was measured to cost a call; "
		       "below, every cell copies %s%s.",
		    from, strategy_name[BASELINE_STRATEGY], TREE_TICKS_MAX, strategy_name[BASELINE_STRATEGY],
		    changed ? "" : ", as the derivation had them");
	say_kept(r);
	return 0;
}

static size_t gate_family(const struct gate_grid *g)
{
	return g->family ? g->family : g->n_lengths * BENCH_GRID_DISTANCES;
}

static int gate_candidate(const struct gate_grid *g, const struct derived_rule *r, int reference, size_t i, size_t j,
			  double noise)
{
	double effect = fmax(noise, g->effect);
	/* A point whose timings' least median went unrecorded is judged by its median. */
	double least = g->least[i][j] > 0 ? g->least[i][j] : g->ratio[i][j];
	return gate_point_ratio(g, r, reference, i, j) > 1 + effect && least > 1 + effect;
}

void gate_grid_holm(struct gate_grid *g, const struct derived_rule *r, int reference, double noise)
{
	double p[GATE_LENGTHS_MAX * BENCH_GRID_DISTANCES];
	size_t n = 0;
	g->effect = gate_effect_size(noise, g->placement_sd, gate_family(g), GATE_FAMILY_ERROR);
	gate_path_paid(g, r, reference);
	for (size_t i = 0; i < g->n_lengths; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			if (gate_candidate(g, r, reference, i, j, noise))
				p[n++] = grid_gate_tie_p(g->slower[i][j], g->rounds[i][j]);
	g->p_reject = holm_threshold(p, n, gate_family(g), GATE_FAMILY_ERROR);
}

int gate_point_loses(const struct gate_grid *g, const struct derived_rule *r, int reference, size_t i, size_t j,
		     double noise)
{
	return gate_candidate(g, r, reference, i, j, noise) &&
	       grid_gate_tie_p(g->slower[i][j], g->rounds[i][j]) <= g->p_reject;
}

/* The copies that lost at any point of the grid that p's repair would
 * change: those of p's lengths in its distance's class under r. A copy
 * that lost at one point of a cell is not offered to the cell again: else
 * the repairs can send a cell from one copy that loses at one of its
 * points to another that loses at another, and back, until the gate's
 * rounds run out and it refuses the table (measured: see
 * docs/notebook/comment-figures-2026-12.md#a-copy-that-lost-is-kept-out-of-its-cell). */
static unsigned int lost_in_cell(const struct gate_grid *g, const struct derived_rule *r, const struct grid_repair *p)
{
	unsigned int lost = 0;
	enum distance_class c = rule_class(r, p->distance);
	for (size_t i = 0; i < g->n_lengths; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			if (g->lengths[i] >= p->lo && g->lengths[i] <= p->hi &&
			    rule_class(r, bench_grid_distances[j]) == c)
				lost |= g->lost[i][j];
	return lost;
}

int gate_repair_round(const struct timings *t, struct derived_rule *r, struct gate_grid *g, struct dispatch_run *d,
			double noise, int *made)
{
	struct derived_rule before = *r;
	int reference = timings_reference(t);
	*made = 0;
	gate_grid_holm(g, &before, reference, noise);
	memset(g->retime, 0, sizeof g->retime);
	for (size_t i = 0; i < g->n_lengths; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++) {
			unsigned int n = g->lengths[i], dist = bench_grid_distances[j];
			if (!gate_point_loses(g, &before, reference, i, j, noise))
				continue;
			g->retime[i][j] = 1;
			/* A cell repaired this round for another point waits for its
			 * timing. */
			if (rule_choice(r, n, dist) != rule_choice(&before, n, dist))
				continue;
			int options[N_COPY_STRATEGIES], k = repair_options(t, r, n, dist, options, N_COPY_STRATEGIES), to = -1;
			int from = rule_choice(r, n, dist);
			struct grid_repair p = {.length = n, .distance = dist, .ratio = g->ratio[i][j], .from = from};
			repair_range(r, n, &p.lo, &p.hi);
			g->lost[i][j] |= 1u << from;
			unsigned int lost = lost_in_cell(g, r, &p);
			for (int o = 0; o < k && to < 0; o++)
				if (!(lost >> options[o] & 1))
					to = options[o];
			g->stuck_length = (int)i, g->stuck_distance = (int)j, g->stuck_from = from;
			if (to < 0 || d->n_repairs == REPAIRS_MAX) {
				snprintf(g->stuck_why, sizeof g->stuck_why, "%s",
					 to < 0 ? "every other copy the measurements rank there has lost at it or loses to "
						  "the reference at a point of the cell"
						: "the run has no room for another repair");
				return 1;
			}
			p.to = to;
			if (repair_apply(r, &p, g->stuck_why, sizeof g->stuck_why))
				return 1;
			d->repairs[d->n_repairs++] = p;
			*made = 1;
		}
	for (size_t i = 0; i < g->n_lengths; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			g->retime[i][j] |= rule_choice(r, g->lengths[i], bench_grid_distances[j]) !=
					   rule_choice(&before, g->lengths[i], bench_grid_distances[j]);
	return 0;
}

void repairs_text(struct buf *b, const struct dispatch_run *d)
{
	buf_printf(b, "repairs %d\n", d->n_repairs);
	for (int i = 0; i < d->n_repairs; i++) {
		const struct grid_repair *p = &d->repairs[i];
		buf_printf(b, "repair %u %u %u %u %.3f %s %s\n", p->length, p->distance, p->lo, p->hi, p->ratio,
			   strategy_name[p->from], strategy_name[p->to]);
	}
}

int repairs_count_parse(const char *line, struct dispatch_run *d, char *why, size_t why_size)
{
	int n, end = 0;
	if (sscanf(line, "repairs %d%n", &n, &end) != 1 || line[end] != '\0' || n < 0 || n > REPAIRS_MAX) {
		snprintf(why, why_size, "expected 'repairs N', N in 0..%d, found '%.60s'", REPAIRS_MAX, line);
		return -1;
	}
	if (n && !d->gate.tried) {
		snprintf(why, why_size, "repairs where the grid gate timed no table");
		return -1;
	}
	d->n_repairs = n;
	d->records_repairs = 1;
	return 0;
}

int repair_parse(const char *line, struct grid_repair *p, char *why, size_t why_size)
{
	char from[32], to[32];
	int end = 0;
	memset(p, 0, sizeof *p);
	if (sscanf(line, "repair %u %u %u %u %lf %31s %31s%n", &p->length, &p->distance, &p->lo, &p->hi, &p->ratio, from,
		   to, &end) != 7 ||
	    line[end] != '\0' || !(p->ratio > 0 && p->ratio < 1e6) || p->distance > 4095 || p->lo > p->length ||
	    p->hi < p->length ||
	    (p->from = strategy_named(from)) < 0 || (p->to = strategy_named(to)) < 0 || p->from == p->to) {
		snprintf(why, why_size,
			 "expected 'repair LENGTH DISTANCE LO HI RATIO FROM TO' (LO <= LENGTH <= HI, two different "
			 "strategies), found '%.80s'",
			 line);
		return -1;
	}
	return 0;
}
