/* memmove's stand-ins for an overlap, chosen from the run's timings, and
 * the archive's lines of those timings (overlap.h). */
#include "overlap.h"
#include "grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int overlap_way(int delta)
{
	return delta > 0 ? DIR_DOWN : DIR_UP;
}

double overlap_ticks(const struct overlap_point *p, int passes)
{
	double best = p->pass_min[0];
	for (int k = 1; k < passes; k++)
		best = fmin(best, p->pass_min[k]);
	return best;
}

/* The shortest length a copy of r that goes one way serves, in a class
 * that holds a distance; BAND_UNBOUNDED where r has none. */
static unsigned int one_way_from(const struct derived_rule *r)
{
	for (int i = 0; i < r->n_bands; i++)
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			if (rule_class_live(r, c) && strategy_catalogue[r->bands[i].strategy[c]].direction != DIR_ANY)
				return r->bands[i].lo;
	return BAND_UNBOUNDED;
}

/* The times the choice compares: the overlapping points of one way from
 * a length on, or, for a run that timed none, the disjoint ones. */
struct source {
	const struct overlap_timings *o;
	const struct timings *t;
	int way;
	unsigned int from;
};

/* s's time at (length, key), key a delta or a distance; 0 where not timed. */
static double time_at(const struct source *src, int s, unsigned int length, long key)
{
	if (!src->o) {
		const struct row *row = src->t->rows ? timings_find(src->t, s, length, (unsigned int)key, ANY_MISALIGN) : NULL;
		return row ? row->ticks : 0;
	}
	for (size_t i = 0; i < src->o->n; i++) {
		const struct overlap_point *p = &src->o->points[i];
		if (p->strategy == s && p->length == length && p->delta == key)
			return overlap_ticks(p, src->o->passes);
	}
	return 0;
}

/* The points of src where reference was timed: keys[2 k] its length, [2 k + 1]
 * its key (malloc'd; *n set). */
static long *points_of(const struct source *src, int reference, size_t *n)
{
	size_t cap = src->o ? src->o->n : src->t->n;
	long *keys = malloc((cap + 1) * 2 * sizeof *keys);
	*n = 0;
	for (size_t i = 0; keys && i < cap; i++) {
		unsigned int length = src->o ? src->o->points[i].length : src->t->rows[i].length;
		int s = src->o ? src->o->points[i].strategy : src->t->rows[i].strategy;
		if (s != reference || length < src->from || (src->o && overlap_way(src->o->points[i].delta) != src->way))
			continue;
		keys[2 * *n] = length;
		keys[2 * *n + 1] = src->o ? (long)src->o->points[i].delta : (long)src->t->rows[i].distance;
		(*n)++;
	}
	return keys;
}

/* Of s's time over the reference's, at the points up to a length: the
 * mean log (summed, while they are counted), the worst log. */
struct verdict {
	double mean, worst;
	int timed; /* at every point */
};

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return x < y ? -1 : x > y;
}

/* The stand-in for way, against reference, which may stand in for either,
 * and in *max the longest copy it takes (0: any; longer ones take the
 * reference); -1 where the run timed the reference at no point of the
 * way. Of every copy s that may stand in and every measured length L, s
 * up to L (L the longest measured: any length) where, over the points up
 * to L, s loses beyond the noise at none and beats the reference beyond
 * it on their mean log: the one whose summed log time over the
 * reference's is least. */
static int choose(const struct source *src, int reference, struct derived_rule *r, unsigned int *max)
{
	size_t n = 0;
	long *keys = points_of(src, reference, &n);
	*max = 0;
	if (!keys || !n) {
		free(keys);
		return -1;
	}
	qsort(keys, n, 2 * sizeof *keys, cmp_long); /* by length: the key pairs' first */
	double log_noise = log1p(r->noise), least = 0;
	int best = reference;
	size_t points = 0;
	struct verdict kept = {0, 0, 0};
	for (int s = 0; s < N_COPY_STRATEGIES; s++) {
		if (s == reference || !plan_may_stand_in(s, src->way) ||
		    (unsigned int)strategy_catalogue[s].min_n > src->from || strategy_catalogue[s].max_n >= 0)
			continue;
		/* The points up to each length in turn: their sum and worst. */
		struct verdict v = {0, -INFINITY, 1};
		for (size_t k = 0; k < n && v.timed; k++) {
			double a = time_at(src, s, (unsigned int)keys[2 * k], keys[2 * k + 1]);
			double b = time_at(src, reference, (unsigned int)keys[2 * k], keys[2 * k + 1]);
			if (!(v.timed = a > 0 && b > 0))
				break;
			v.mean += log(a / b);
			v.worst = fmax(v.worst, log(a / b));
			if (v.worst > log_noise)
				break; /* a loss: no cut past it */
			if (k + 1 < n && keys[2 * (k + 1)] == keys[2 * k])
				continue; /* a cut falls after the last point of a length */
			if (v.mean < least && v.mean / (double)(k + 1) < -log_noise)
				best = s, points = k + 1, least = v.mean, kept = (struct verdict){v.mean / (double)(k + 1), v.worst, 1};
		}
	}
	const char *way = src->way == DIR_DOWN ? "down" : "up", *kind = src->o ? "overlapping" : "disjoint";
	if (best == reference) {
		say(r, " Where the ranges overlap and the copy must go %s, memmove takes %s: no copy that goes %s beat "
		       "it beyond the noise over the %s points from %u bytes up to any of their lengths without losing "
		       "at one.",
		    way, strategy_name[best], way, kind, src->from);
	} else {
		*max = points < n ? (unsigned int)keys[2 * (points - 1)] : 0;
		say(r, " Where the ranges overlap and the copy must go %s, memmove takes %s from %u bytes", way,
		    strategy_name[best], src->from);
		if (*max)
			say(r, " to %u", *max);
		say(r, ": %.3fx %s's time over the %zu %s points there, at worst %.3fx", exp(kept.mean),
		    strategy_name[reference], points, kind, exp(kept.worst));
		if (*max)
			say(r, "; %s beyond.", strategy_name[reference]);
		else
			say(r, ".");
	}
	free(keys);
	return best;
}

void overlap_stand_ins(const struct overlap_timings *o, const struct timings *t, int moves, struct derived_rule *r)
{
	r->stand_in[DIR_UP] = r->stand_in[DIR_DOWN] = 0;
	r->stand_in_max[DIR_UP] = r->stand_in_max[DIR_DOWN] = 0;
	unsigned int from = one_way_from(r);
	struct copy_table table;
	rule_table(r, &table);
	int reference = timings_reference(t);
	/* A table that copies forward everywhere ships as the baseline, with
	 * no tree and no guard. */
	if (!moves || from == BAND_UNBOUNDED || plan_copies_forward(&table))
		return;
	if (!strategy_catalogue[reference].defers) {
		say(r, " This run timed no C library's memmove, so no copy of ours can be shown not to lose to it "
		       "where the ranges overlap: memmove keeps it there.");
		return;
	}
	if (!o || !o->n)
		say(r, " This run timed no overlapping copy: memmove's copies for an overlap are chosen on its "
		       "disjoint points.");
	for (int way = DIR_UP; way <= DIR_DOWN; way++) {
		struct source src = {o && o->n ? o : NULL, t, way, from};
		r->stand_in[way] = choose(&src, reference, r, &r->stand_in_max[way]) + 1;
	}
}

void overlap_text(struct buf *b, const struct overlap_timings *o)
{
	buf_printf(b, "overlaps %zu %d\n", o->n, o->passes);
	for (size_t i = 0; i < o->n; i++) {
		const struct overlap_point *p = &o->points[i];
		buf_printf(b, "overlap %s %u %d", strategy_name[p->strategy], p->length, p->delta);
		for (int k = 0; k < o->passes; k++)
			buf_printf(b, " %.2f", p->pass_min[k]);
		buf_adds(b, "\n");
	}
}

int overlap_count_parse(const char *line, struct overlap_timings *o, char *why, size_t why_size)
{
	int end = 0;
	long n;
	if (sscanf(line, "overlaps %ld %d%n", &n, &o->passes, &end) != 2 || line[end] != '\0' || n < 0 ||
	    n > OVERLAP_MAX_POINTS || o->passes < 1 || o->passes > MAX_PASSES) {
		snprintf(why, why_size, "expected 'overlaps N PASSES', N in 0..%d and PASSES in 1..%d, found '%.60s'",
			 OVERLAP_MAX_POINTS, MAX_PASSES, line);
		return -1;
	}
	o->n = (size_t)n;
	o->points = calloc(o->n + 1, sizeof *o->points);
	if (!o->points) {
		snprintf(why, why_size, "out of memory");
		return -1;
	}
	return 0;
}

int overlap_point_parse(const char *line, int passes, struct overlap_point *p, char *why, size_t why_size)
{
	char name[32];
	int used = 0;
	long length, delta;
	if (sscanf(line, "overlap %31s %ld %ld%n", name, &length, &delta, &used) != 3)
		goto bad;
	p->strategy = strategy_named(name);
	if (p->strategy < 0 || length < 1 || length > (1L << 30) || delta == 0 || labs(delta) >= length ||
	    !plan_may_stand_in(p->strategy, overlap_way((int)delta)) || !strategy_serves(p->strategy, (unsigned int)length))
		goto bad;
	p->length = (unsigned int)length;
	p->delta = (int)delta;
	const char *s = line + used;
	for (int k = 0; k < passes; k++) {
		char *end;
		double v = strtod(s, &end);
		if (end == s || *s != ' ' || !isfinite(v) || v <= 0 || v > 1e12)
			goto bad;
		p->pass_min[k] = v;
		s = end;
	}
	if (*s == '\0')
		return 0;
bad:
	snprintf(why, why_size,
		 "expected 'overlap STRATEGY LENGTH DELTA' and a positive time for each of %d passes, STRATEGY a copy "
		 "that may serve an overlap going the way DELTA (dst - src, 0 < |DELTA| < LENGTH) needs, found '%.80s'",
		 passes, line);
	return -1;
}

int overlap_points_distinct(const struct overlap_timings *o, char *why, size_t why_size)
{
	/* Some hundreds of points: a scan is quick enough. */
	for (size_t i = 0; i < o->n; i++)
		for (size_t j = i + 1; j < o->n; j++)
			if (o->points[i].strategy == o->points[j].strategy && o->points[i].length == o->points[j].length &&
			    o->points[i].delta == o->points[j].delta) {
				snprintf(why, why_size, "the overlapping point %s %u %d appears twice",
					 strategy_name[o->points[i].strategy], o->points[i].length, o->points[i].delta);
				return -1;
			}
	return 0;
}

void overlap_timings_free(struct overlap_timings *o)
{
	free(o->points);
	o->points = NULL;
	o->n = 0;
}
