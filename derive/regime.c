/* The regime check (regime.h): each judged point against the same copy at
 * the same distance and the run's next longer measured length. */
#include "regime.h"

#include "grid.h"

#include "../common/strategies.h"
#include "../common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The copies whose body is rep movsb or ymm and zmm moves, by their
 * catalogue rows, as the catalogue asks (no file outside it names a
 * strategy to decide something):
 *  - max_n -1: they copy any length, one rep movsb or one loop whose every
 *    pass moves as much as the last. A copy of bounded lengths is
 *    straight-line code that takes another path at other lengths
 *    (avx2_small: general registers below 16 bytes, xmm to 32, ymm past
 *    it), so there a longer copy may rightly take less time.
 *  - not defers: the C library's memmove chooses its own way by length.
 *  - a vector isa (avx2_forward, avx2_down, avx2_nt, avx512_forward,
 *    avx512_down), or, among the general-register copies, upward: those
 *    are rep movsb (forward, forward_aligned). The other, down, moves 8
 *    bytes a store, slowly enough that where its buffers lie does not time
 *    it apart: its time rises with the length where a vector copy's falls
 *    (measured: see
 *    docs/notebook/comment-figures-2026-12.md#lanes-that-outgrow-the-l1-cache). */
int regime_judged(int code)
{
	const struct strategy *s = strategy_of(code);
	if (!s || s->max_n >= 0 || s->defers)
		return 0;
	return s->isa != ISA_GPR || s->direction == DIR_UP;
}

static int cmp_flag(const void *a, const void *b)
{
	const struct regime_flag *x = a, *y = b;
	if (x->strategy != y->strategy)
		return x->strategy < y->strategy ? -1 : 1;
	if (x->length != y->length)
		return x->length < y->length ? -1 : 1;
	return x->distance < y->distance ? -1 : x->distance > y->distance;
}

/* The run's measured lengths, each once, shortest first (malloc'd). */
static unsigned int *measured_lengths(const struct timings *t, size_t *n)
{
	unsigned int *v = xmalloc((t->n ? t->n : 1) * sizeof *v);
	for (size_t i = 0; i < t->n; i++)
		v[i] = t->rows[i].length;
	qsort(v, t->n, sizeof *v, cmp_uint);
	size_t k = 0;
	for (size_t i = 0; i < t->n; i++)
		if (k == 0 || v[i] != v[k - 1])
			v[k++] = v[i];
	*n = k;
	return v;
}

/* The index of length in lengths[0..n), which holds it. */
static size_t length_index(const unsigned int *lengths, size_t n, unsigned int length)
{
	const unsigned int *at = bsearch(&length, lengths, n, sizeof *lengths, cmp_uint);
	return (size_t)(at - lengths);
}

void regime_run(const struct timings *t, struct regime_check *out)
{
	*out = (struct regime_check){0};
	size_t n_lengths, cap = 0;
	unsigned int *lengths = measured_lengths(t, &n_lengths);
	/* Pairs compared per strategy and length, for each flag's count. */
	size_t *pairs = calloc((size_t)N_COPY_STRATEGIES * (n_lengths ? n_lengths : 1), sizeof *pairs);
	if (!pairs) {
		fprintf(stderr, "regime check: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct row *r = &t->rows[i];
		/* A key's first row alone: rows are keyed by distance, their
		 * misalignment follows from it (timings.h). */
		if (!regime_judged(r->strategy) || timings_find(t, r->strategy, r->length, r->distance, ANY_MISALIGN) != r)
			continue;
		size_t k = length_index(lengths, n_lengths, r->length);
		if (k + 1 == n_lengths)
			continue;
		const struct row *w = timings_find(t, r->strategy, lengths[k + 1], r->distance, ANY_MISALIGN);
		if (!w)
			continue;
		pairs[(size_t)r->strategy * n_lengths + k]++;
		out->compared++;
		if (!(w->ticks < REGIME_DROP * r->ticks))
			continue;
		if (out->n == cap)
			cap = cap ? 2 * cap : 64, out->flags = xrealloc(out->flags, cap * sizeof *out->flags);
		out->flags[out->n++] = (struct regime_flag){r->strategy, r->length, w->length, r->distance, r->ticks,
							     w->ticks, 0};
	}
	for (size_t i = 0; i < out->n; i++) {
		struct regime_flag *f = &out->flags[i];
		f->compared = pairs[(size_t)f->strategy * n_lengths + length_index(lengths, n_lengths, f->length)];
	}
	qsort(out->flags, out->n, sizeof *out->flags, cmp_flag);
	free(pairs);
	free(lengths);
}

void regime_free(struct regime_check *c)
{
	free(c->flags);
	*c = (struct regime_check){0};
}

/* The groups' order: the most flags first, then as the flags are sorted. */
static int cmp_group(const void *a, const void *b)
{
	const struct regime_group *x = a, *y = b;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

size_t regime_groups(const struct regime_check *c, struct regime_group **out)
{
	size_t n = 0;
	*out = xmalloc((c->n ? c->n : 1) * sizeof **out);
	for (size_t i = 0; i < c->n; i++) {
		const struct regime_flag *f = &c->flags[i];
		struct regime_group *g = n ? &(*out)[n - 1] : NULL;
		if (!g || c->flags[g->first].strategy != f->strategy || c->flags[g->first].length != f->length) {
			g = &(*out)[n++];
			*g = (struct regime_group){i, 0, i};
		}
		g->n++;
		const struct regime_flag *w = &c->flags[g->worst];
		if (f->next_ticks * w->ticks < w->next_ticks * f->ticks)
			g->worst = i;
	}
	qsort(*out, n, sizeof **out, cmp_group);
	return n;
}

void regime_group_text(const struct regime_check *c, const struct regime_group *g, char *out, size_t size)
{
	const struct regime_flag *w = &c->flags[g->worst];
	snprintf(out, size, "%s, %u byte%s: %zu of %zu distance%s, down to %.3f of the time at %u (d = %u: %.2f ticks, %.2f)",
		 strategy_name[w->strategy], w->length, w->length == 1 ? "" : "s", g->n, w->compared,
		 w->compared == 1 ? "" : "s", w->next_ticks / w->ticks, w->next, w->distance, w->ticks, w->next_ticks);
}

/* A point's key: its length and distance in one number. */
static unsigned long long point_key(unsigned int length, unsigned int distance)
{
	return (unsigned long long)length << 32 | distance;
}

static int cmp_key(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
	return x < y ? -1 : x > y;
}

/* Whether t has a point at length n in the coarse middle of the
 * distances (REF_LO..REF_HI, what the elsewhere class is judged on) that
 * keys[0..n_keys) does not name. */
static int middle_left(const struct timings *t, unsigned int length, const unsigned long long *keys, size_t n_keys)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct row *r = &t->rows[i];
		unsigned long long key = point_key(r->length, r->distance);
		if (r->strategy == BASELINE_STRATEGY && r->length == length && r->distance >= REF_LO &&
		    r->distance <= REF_HI && !bsearch(&key, keys, n_keys, sizeof *keys, cmp_key))
			return 1;
	}
	return 0;
}

/* keys[0..n), sorted, less each point in the coarse middle of a length
 * that would be left none there: every length needs one for its
 * elsewhere class, so those points stay, flagged or not. Returns how many
 * keys are left, still sorted. */
static size_t keep_middle(const struct timings *t, unsigned long long *keys, size_t n)
{
	size_t left = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned int length = (unsigned int)(keys[i] >> 32), d = (unsigned int)keys[i];
		if (d >= REF_LO && d <= REF_HI && !middle_left(t, length, keys, n))
			continue;
		keys[left++] = keys[i];
	}
	return left;
}

size_t regime_exclude(const struct timings *t, const struct regime_check *c, struct timings *out)
{
	*out = (struct timings){0};
	unsigned long long *keys = xmalloc((c->n ? c->n : 1) * sizeof *keys);
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++)
		keys[n++] = point_key(c->flags[i].length, c->flags[i].distance);
	qsort(keys, n, sizeof *keys, cmp_key);
	size_t distinct = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || keys[i] != keys[distinct - 1])
			keys[distinct++] = keys[i];
	distinct = keep_middle(t, keys, distinct);
	for (size_t i = 0; i < t->n; i++) {
		unsigned long long key = point_key(t->rows[i].length, t->rows[i].distance);
		if (!bsearch(&key, keys, distinct, sizeof *keys, cmp_key))
			timings_add(out, t->rows[i]);
	}
	free(keys);
	return distinct;
}

size_t regime_deciding(const struct timings *t, int exclude, struct timings *out)
{
	if (!exclude) {
		*out = (struct timings){0};
		for (size_t i = 0; i < t->n; i++)
			timings_add(out, t->rows[i]);
		return 0;
	}
	struct regime_check c;
	regime_run(t, &c);
	size_t left_out = regime_exclude(t, &c, out);
	regime_free(&c);
	return left_out;
}

void regime_say_excluded(struct derived_rule *r, size_t left_out)
{
	if (!left_out)
		return;
	char said[sizeof r->note];
	int n = snprintf(said, sizeof said,
			 "%zu point%s where the regime check flagged a copy's time (a longer copy timed faster) decided no "
			 "cell. ",
			 left_out, left_out == 1 ? "" : "s");
	if (n <= 0 || (size_t)n >= sizeof said)
		return;
	size_t keep = strnlen(r->note, sizeof r->note - 1);
	if (keep > sizeof said - 1 - (size_t)n)
		keep = sizeof said - 1 - (size_t)n;
	memcpy(said + n, r->note, keep);
	said[(size_t)n + keep] = '\0';
	memcpy(r->note, said, sizeof r->note);
}
