#include "dispatch_cost.h"

#include "../common/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The workload of make bench: 4096 calls in 32 KiB, in the caches. */
enum { CALLS = 4096, REGION = 32768, ROUNDS = 15 };

struct streams {
	struct call calls[2][CALLS]; /* random, then sorted */
	unsigned char *src, *dst;
};

static struct streams *streams_new(void)
{
	struct streams *s = malloc(sizeof *s);
	unsigned char *arena = mmap(NULL, 2 * REGION + 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!s || arena == MAP_FAILED) {
		fprintf(stderr, "probe: out of memory for the workload\n");
		exit(1);
	}
	memset(arena, 0x5a, 2 * REGION + 8192);
	s->src = arena;
	s->dst = arena + REGION + 4096 + 2048; /* off the source's page offsets */
	random_calls(s->calls[0], CALLS, REGION, 1);
	memcpy(s->calls[1], s->calls[0], sizeof s->calls[0]);
	sort_calls(s->calls[1], CALLS);
	return s;
}

static void streams_free(struct streams *s)
{
	munmap(s->src, 2 * REGION + 8192);
	free(s);
}

/* Each table installed in turn, round after round, so that a slow spell of
 * the machine hits them alike; the minimum per table and stream. */
static void time_tables(const struct probe_flavor *f, struct streams *s, const struct derived_rule *tables, int n,
			struct workload_ticks *out)
{
	for (int i = 0; i < n; i++)
		out[i].random = out[i].sorted = HUGE_VAL;
	for (int round = 0; round < ROUNDS; round++)
		for (int i = 0; i < n; i++) {
			f->install_table(&tables[i]);
			for (int o = 0; o < 2; o++) {
				double t = time_calls(f->table_copy, s->dst, s->src, s->calls[o], CALLS) / CALLS;
				double *keep = o ? &out[i].sorted : &out[i].random;
				*keep = fmin(*keep, t);
			}
		}
	f->force_strategy(BASELINE_STRATEGY);
}

/* A table of n bands that alternate forward with a copy of about its cost:
 * small within its 32 bytes, forward_aligned (rep movsb after an aligning
 * head) from 64. The edges split the workload's sizes (8 bytes are more
 * than half of them; 104, 24, 48, 32 and 16 come next), so that
 * consecutive calls land in different bands, and what the random order
 * adds over the sorted one is the dispatch's mispredictions, not a slower
 * copy's. */
static void alternating_table(int n, struct derived_rule *r)
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
		int other = b->hi <= 32 ? STRATEGY_SMALL : STRATEGY_FORWARD_ALIGNED;
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			b->strategy[c] = i % 2 ? other : BASELINE_STRATEGY;
	}
}

void measure_dispatch(const struct probe_flavor *f, struct dispatch_run *d)
{
	struct streams *s = streams_new();
	struct derived_rule *tables = calloc(DISPATCH_TABLES, sizeof *tables);
	if (!tables) {
		fprintf(stderr, "probe: out of memory\n");
		exit(1);
	}
	for (int i = 0; i < DISPATCH_TABLES; i++)
		alternating_table(dispatch_bands[i], &tables[i]);
	time_tables(f, s, tables, DISPATCH_TABLES, d->tables);
	d->measured = 1;
	free(tables);
	streams_free(s);
}

int time_candidates(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise)
{
	struct derived_rule *tables = calloc(DISPATCH_CANDIDATES + 1, sizeof *tables);
	struct workload_ticks times[DISPATCH_CANDIDATES + 1];
	if (!tables) {
		fprintf(stderr, "probe: out of memory\n");
		exit(1);
	}
	double band_ticks = dispatch_band_ticks(d);
	for (int i = 0; i < DISPATCH_CANDIDATES; i++) {
		struct derive_cost cost = {band_ticks, candidate_multiples[i], 1};
		if (derive_rule(t, &cost, &tables[i])) {
			fprintf(stderr, "probe: %s\n", tables[i].note);
			free(tables);
			return -1;
		}
	}
	derived_baseline(&tables[DISPATCH_CANDIDATES]);
	struct streams *s = streams_new();
	time_tables(f, s, tables, DISPATCH_CANDIDATES + 1, times);
	streams_free(s);
	memcpy(d->candidates, times, sizeof d->candidates);
	d->baseline = times[DISPATCH_CANDIDATES];
	dispatch_choose(d, noise);
	for (int i = 0; i < DISPATCH_CANDIDATES; i++)
		printf("  candidate: %g times the band cost, %d band%s: %.2f ticks a call on random sizes, %.2f sorted%s\n",
		       candidate_multiples[i], tables[i].n_bands, tables[i].n_bands == 1 ? "" : "s",
		       times[i].random, times[i].sorted, candidate_multiples[i] == d->chosen ? " (kept)" : "");
	printf("  the baseline table: %.2f ticks a call on random sizes, %.2f sorted%s\n", d->baseline.random,
	       d->baseline.sorted, d->chosen == CHOSE_BASELINE ? " (kept)" : "");
	free(tables);
	return 0;
}
