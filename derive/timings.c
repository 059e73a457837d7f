#include "timings.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STRATEGY_NAME(id, name, ...) name,
const char *const strategy_name[N_COPY_STRATEGIES] = {STRATEGIES(STRATEGY_NAME)};
#undef STRATEGY_NAME

static void *grow(void *p, size_t n, size_t size)
{
	p = realloc(p, n * size);
	if (!p) {
		fprintf(stderr, "probe: out of memory\n");
		exit(1);
	}
	return p;
}

static size_t key_hash(int s, unsigned int length, unsigned int distance)
{
	uint64_t h = (uint64_t)length * 0x9e3779b97f4a7c15u ^ (uint64_t)distance * 0xc2b2ae3d27d4eb4fu ^
		     (uint64_t)(unsigned int)s * 0x165667b19e3779f9u;
	return (size_t)(h ^ h >> 29);
}

/* The slot of this key: the one holding its rows, or the empty one where
 * they would go. The slots are never more than half full, so one is empty. */
static struct timings_slot *slot_of(const struct timings *t, int s, unsigned int length, unsigned int distance)
{
	size_t mask = t->n_slots - 1;
	for (size_t h = key_hash(s, length, distance) & mask;; h = (h + 1) & mask) {
		struct timings_slot *slot = &t->slots[h];
		if (!slot->first)
			return slot;
		const struct row *w = &t->rows[slot->first - 1];
		if (w->strategy == s && w->length == length && w->distance == distance)
			return slot;
	}
}

/* Row i joins the end of its key's list, which so stays in the order the
 * rows were added. */
static void index_row(struct timings *t, size_t i)
{
	const struct row *w = &t->rows[i];
	struct timings_slot *slot = slot_of(t, w->strategy, w->length, w->distance);
	t->next[i] = 0;
	if (slot->first)
		t->next[slot->last - 1] = i + 1;
	else
		slot->first = i + 1;
	slot->last = i + 1;
}

void timings_add(struct timings *t, struct row r)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->rows = grow(t->rows, t->cap, sizeof *t->rows);
		t->next = grow(t->next, t->cap, sizeof *t->next);
	}
	t->rows[t->n++] = r;
	if (2 * t->n <= t->n_slots) {
		index_row(t, t->n - 1);
		return;
	}
	/* Twice the slots, every row indexed again in order. */
	free(t->slots);
	t->n_slots = t->n_slots ? 2 * t->n_slots : 2048;
	t->slots = calloc(t->n_slots, sizeof *t->slots);
	if (!t->slots) {
		fprintf(stderr, "probe: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < t->n; i++)
		index_row(t, i);
}

void timings_free(struct timings *t)
{
	free(t->rows);
	free(t->slots);
	free(t->next);
	memset(t, 0, sizeof *t);
}

int timings_reference(const struct timings *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (strategy_catalogue[t->rows[i].strategy].defers)
			return t->rows[i].strategy;
	return BASELINE_STRATEGY;
}

const struct row *timings_find(const struct timings *t, int s, unsigned int length, unsigned int distance,
			     unsigned int misalign)
{
	if (!t->n_slots) {
		/* Rows that did not come through timings_add: no index. */
		for (size_t i = 0; i < t->n; i++) {
			const struct row *r = &t->rows[i];
			if (r->strategy == s && r->length == length && r->distance == distance &&
			    (misalign == ANY_MISALIGN || r->misalign == misalign))
				return r;
		}
		return NULL;
	}
	/* The key's rows in the order they were added: the first that matches
	 * is the first of the table. */
	for (size_t i = slot_of(t, s, length, distance)->first; i; i = t->next[i - 1]) {
		const struct row *r = &t->rows[i - 1];
		if (misalign == ANY_MISALIGN || r->misalign == misalign)
			return r;
	}
	return NULL;
}

static const char header[] = "strategy,length,distance,misalign,ticks,spread";

int timings_read_csv(struct timings *t, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "probe: %s: %s\n", path, strerror(errno));
		return -1;
	}
	char line[256];
	int lineno = 0, rc = 0;
	while (!rc && fgets(line, sizeof line, f)) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (lineno == 1) {
			if (strcmp(line, header) != 0) {
				fprintf(stderr, "probe: %s:1: the header must be '%s'\n", path, header);
				rc = -1;
			}
			continue;
		}
		if (!line[0] || line[0] == '#')
			continue;
		char name[32];
		struct row r = {0};
		int used = 0;
		if (sscanf(line, "%31[^,],%u,%u,%u,%lf,%lf%n", name, &r.length, &r.distance, &r.misalign, &r.ticks,
			   &r.spread, &used) != 6 ||
		    line[used] != '\0') {
			fprintf(stderr, "probe: %s:%d: expected %s\n", path, lineno, header);
			rc = -1;
			break;
		}
		int s = strategy_named(name);
		if (s < 0 || r.length == 0 || r.distance > 4095 || r.misalign > 63 || r.ticks < 0 ||
		    r.spread < 0) {
			fprintf(stderr, "probe: %s:%d: a value is out of range (strategy, length > 0, distance 0..4095, "
					"misalign 0..63, ticks >= 0, spread >= 0)\n",
				path, lineno);
			rc = -1;
			break;
		}
		/* A time for a copy the strategy cannot make came from a broken probe. */
		if (!strategy_serves(s, r.length)) {
			if (strategy_catalogue[s].max_n >= 0)
				fprintf(stderr, "probe: %s:%d: %s copies only lengths %d..%d, not %u\n", path, lineno,
					strategy_name[s], strategy_catalogue[s].min_n, strategy_catalogue[s].max_n, r.length);
			else
				fprintf(stderr, "probe: %s:%d: %s copies only lengths %d and up, not %u\n", path, lineno,
					strategy_name[s], strategy_catalogue[s].min_n, r.length);
			rc = -1;
			break;
		}
		r.strategy = s;
		timings_add(t, r);
	}
	fclose(f);
	if (!rc && t->n == 0) {
		fprintf(stderr, "probe: %s: no measurements\n", path);
		rc = -1;
	}
	return rc;
}
