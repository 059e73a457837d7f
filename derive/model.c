/* The model of a table on the random-size workload (model.h). */
#include "model.h"

#include "grid.h"

#include "../common/workload.h"
#include "../plan/walk.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Calls enough that each branch's share of them is known to a fraction of
 * a percent; the stream the probe times, drawn the same way. */
#define MODEL_CALLS 16384
#define MODEL_SEED 1

void dispatch_alternating_table(int n, struct derived_rule *r)
{
	static const unsigned int edges[][7] = {{0}, {64}, {8, 32, 64}, {4, 8, 16, 32, 64, 96, 104}};
	const unsigned int *e = edges[n == 1 ? 0 : n == 2 ? 1 : n == 4 ? 2 : 3];
	derived_baseline(r);
	r->n_bands = n;
	r->align_dst = PROBE_ALIGN_DST;
	for (int i = 0; i < n; i++) {
		struct band *b = &r->bands[i];
		b->lo = i ? e[i - 1] + 1 : 0;
		b->hi = i + 1 < n ? e[i] : BAND_UNBOUNDED;
		int other = BASELINE_STRATEGY;
		for (int k = N_COPY_STRATEGIES - 1; k >= 0; k--)
			if (k != BASELINE_STRATEGY && strategy_catalogue[k].isa == ISA_GPR && !strategy_catalogue[k].defers &&
			    strategy_serves(k, b->lo) && strategy_serves(k, b->hi))
				other = k;
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			b->strategy[c] = i % 2 ? other : BASELINE_STRATEGY;
	}
}

/* The workload's calls, drawn once. */
static const struct call *model_calls(void)
{
	static struct call calls[MODEL_CALLS];
	static int drawn;
	if (!drawn)
		random_calls(calls, MODEL_CALLS, WORKLOAD_REGION, MODEL_SEED), drawn = 1;
	return calls;
}

static unsigned int distance_of(const struct call *c)
{
	return (unsigned int)(c->dst - c->src) & 4095u;
}

/* Each call through r's tree: its copy into to[] (where not NULL), and
 * the branches and mispredictions a call. Nonzero where the tree cannot
 * be built or reaches no copy. */
static int walk_calls(const struct derived_rule *r, int *to, double *branches, double *mispredicts)
{
	struct copy_table t, at;
	struct plan_tree tree = {0};
	rule_table(r, &t);
	plan_at_isa(&t, N_ISA_LEVELS - 1, &at);
	if (plan_tree(&at, &tree))
		return -1;
	unsigned int *reached = calloc((size_t)tree.n_steps, sizeof *reached);
	unsigned int *taken = calloc((size_t)tree.n_steps, sizeof *taken);
	const struct call *calls = model_calls();
	long sum = 0;
	int rc = reached && taken ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < MODEL_CALLS; i++) {
		int path[PLAN_MAX_STEPS / 4], n_path = 0, b;
		int s = plan_walk_path(&tree, calls[i].len, distance_of(&calls[i]), &b, path, &n_path,
				       (int)(sizeof path / sizeof *path));
		if (s < 0) {
			rc = -1;
			break;
		}
		if (to)
			to[i] = s;
		sum += b;
		for (int k = 0; k < n_path; k++) {
			int step = path[k] < 0 ? -path[k] - 1 : path[k];
			reached[step]++;
			taken[step] += path[k] < 0;
		}
	}
	double miss = 0;
	for (int k = 0; rc == 0 && k < tree.n_steps; k++)
		miss += fmin(taken[k], reached[k] - taken[k]);
	*branches = (double)sum / MODEL_CALLS;
	*mispredicts = miss / MODEL_CALLS;
	free(reached);
	free(taken);
	plan_tree_free(&tree);
	return rc;
}

int rule_branches_at(const struct derived_rule *r, unsigned int n, unsigned int d)
{
	struct copy_table t, at;
	struct plan_tree tree = {0};
	int branches = -1;
	rule_table(r, &t);
	plan_at_isa(&t, N_ISA_LEVELS - 1, &at);
	if (plan_tree(&at, &tree))
		return -1;
	if (plan_walk(&tree, n, d & 4095u, &branches) < 0)
		branches = -1;
	plan_tree_free(&tree);
	return branches;
}

struct model_costs model_costs_of(const struct dispatch_run *d)
{
	struct model_costs c = {MODEL_COMPARE_TICKS_DEFAULT, MODEL_MISPREDICT_TICKS_DEFAULT};
	struct derived_rule one, eight;
	double b1, m1, b8, m8;
	if (!d || !d->measured)
		return c;
	dispatch_alternating_table(1, &one);
	dispatch_alternating_table(8, &eight);
	if (walk_calls(&one, NULL, &b1, &m1) || walk_calls(&eight, NULL, &b8, &m8) || b8 <= b1 || m8 <= m1)
		return c;
	const struct workload_ticks *t1 = &d->tables[0], *t8 = &d->tables[DISPATCH_TABLES - 1];
	c.compare_ticks = fmax(0, (t8->sorted - t1->sorted) / (b8 - b1));
	c.mispredict_ticks = fmax(0, ((t8->random - t8->sorted) - (t1->random - t1->sorted)) / (m8 - m1));
	return c;
}

/* The lengths t measured the baseline at, sorted, and how many. */
static size_t measured_lengths(const struct timings *t, unsigned int *len)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].strategy == BASELINE_STRATEGY)
			len[n++] = t->rows[i].length;
	qsort(len, n, sizeof *len, cmp_uint);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!m || len[m - 1] != len[i])
			len[m++] = len[i];
	return m;
}

/* The measured length nearest n (the lower on a tie). */
static unsigned int nearest(const unsigned int *len, size_t n_len, unsigned int n)
{
	unsigned int best = len[0];
	for (size_t i = 1; i < n_len; i++)
		if ((len[i] > n ? len[i] - n : n - len[i]) < (best > n ? best - n : n - best))
			best = len[i];
	return best;
}

/* Strategy s's time at length n by distance, each distance taking the
 * nearest one measured (mod 4096): the probe measures distances densely
 * near the source and sparsely between, and a mean over them would weigh
 * the few that stall as much as the many that do not. Nonzero where s was
 * not measured at n. */
static int by_distance(const struct timings *t, int s, unsigned int n, double *ticks)
{
	int have = 0;
	unsigned int at[4096];
	for (unsigned int d = 0; d < 4096; d++)
		ticks[d] = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct row *p = &t->rows[i];
		if (p->strategy == s && p->length == n && p->distance < 4096 && ticks[p->distance] == 0)
			ticks[p->distance] = p->ticks, at[have++] = p->distance;
	}
	if (!have)
		return -1;
	for (unsigned int d = 0; d < 4096; d++) {
		if (ticks[d] > 0)
			continue;
		unsigned int best = 4096;
		double v = 0;
		for (int k = 0; k < have; k++) {
			unsigned int gap = (d - at[k]) & 4095u;
			gap = gap > 2048 ? 4096 - gap : gap;
			if (gap < best)
				best = gap, v = ticks[at[k]];
		}
		ticks[d] = v;
	}
	return 0;
}

int rule_model(const struct timings *t, const struct derived_rule *r, const struct model_costs *c, int classes_first,
	       struct model_figures *out)
{
	memset(out, 0, sizeof *out);
	int *to = malloc(MODEL_CALLS * sizeof *to);
	unsigned int *len = malloc((t->n ? t->n : 1) * sizeof *len);
	/* Per strategy and measured length, its time at every distance,
	 * filled when a call first needs it. */
	double **cache = NULL;
	size_t n_len = len ? measured_lengths(t, len) : 0;
	int rc = to && len && n_len ? 0 : -1;
	if (rc == 0)
		cache = calloc((size_t)N_COPY_STRATEGIES * n_len, sizeof *cache);
	if (!cache || walk_calls(r, to, &out->branches_a_call, &out->mispredicts_a_call))
		rc = -1;
	int tested[N_DISTANCE_CLASSES] = {0};
	for (int cl = 0; rc == 0 && classes_first && cl < N_DISTANCE_CLASSES; cl++)
		for (int b = 0; cl != CLASS_ELSEWHERE && b < r->n_bands; b++)
			tested[cl] |= r->bands[b].strategy[cl] != r->bands[b].strategy[CLASS_ELSEWHERE];
	const struct call *calls = model_calls();
	double in_class[N_DISTANCE_CLASSES] = {0};
	for (size_t i = 0; rc == 0 && i < MODEL_CALLS; i++) {
		unsigned int d = distance_of(&calls[i]), n = nearest(len, n_len, calls[i].len);
		in_class[rule_class(r, d)] += 1.0 / MODEL_CALLS;
		size_t li = 0;
		while (len[li] != n)
			li++;
		double **v = &cache[(size_t)to[i] * n_len + li];
		if (!*v && (!(*v = malloc(4096 * sizeof **v)) || by_distance(t, to[i], n, *v))) {
			rc = -1;
			break;
		}
		out->body += (*v)[d];
	}
	if (rc == 0) {
		/* A class test in front of every call: one compare each, taken
		 * by the calls in its class, in no order a predictor learns. */
		for (int cl = 0; cl < N_DISTANCE_CLASSES; cl++)
			if (tested[cl])
				out->branches_a_call += 1, out->mispredicts_a_call += fmin(in_class[cl], 1 - in_class[cl]);
		out->body /= MODEL_CALLS;
		out->compares = out->branches_a_call * c->compare_ticks;
		out->mispredicts = out->mispredicts_a_call * c->mispredict_ticks;
		out->total = out->body + out->compares + out->mispredicts;
	}
	for (size_t k = 0; cache && k < (size_t)N_COPY_STRATEGIES * n_len; k++)
		free(cache[k]);
	free(to), free(len), free(cache);
	return rc;
}
