#include "measure.h"

#include "../derive/derive.h"
#include "../common/timer.h"
#include "compiled.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void add(unsigned int *list, size_t *n, size_t cap, unsigned int v)
{
	for (size_t i = 0; i < *n; i++)
		if (list[i] == v)
			return;
	if (*n < cap)
		list[(*n)++] = v;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
	return x < y ? -1 : x > y;
}

/* The coarse middle: every 128 bytes, each moved off its multiple of 64 by
 * a different amount, so that the middle holds every kind of destination
 * misalignment (the source is page-aligned: misalignment is d mod 64). */
static unsigned int coarse(unsigned int k)
{
	return 192 + 128 * k + (k * 23) % 64;
}

void timing_plan_full(struct timing_plan *p)
{
	static const unsigned int steps[] = {80,    96,     112,    128,    160,     192,     256,     320,
					     384,   512,    768,    1024,   1536,    2048,    3072,    4096,
					     6144,  8192,   16384,  32768,  65536,   131072,  262144,  524288,
					     1048576, 2097152, 4194304, 8388608};
	/* Past 1 MiB a copy's lanes outgrow the last-level cache of many
	 * cores (the two lanes of an 8 MiB copy span 32 MiB, common/timer.h),
	 * where streaming stores can win; a point there costs milliseconds, so
	 * only the distances of the benchmark's grid are timed. */
	/* 2061 (2048 + 13): odd and mid-page, past the reach of the above and
	 * near classes (CLASS_BOUND_MAX, 2047) and a multiple of no zero_mod:
	 * class elsewhere in every table whose below class is under 2035. */
	static const unsigned int sparse[] = {0, 1, 16, 31, 32, 33, 63, 64, 65, 2061, 4064, 4088, 4095};
	static const unsigned int fine_lengths[] = {1, 2, 3, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024, 4096, 16384};
	memset(p, 0, sizeof *p);
	for (unsigned int n = 1; n <= 64; n++)
		p->lengths[p->n_lengths++] = n;
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		p->lengths[p->n_lengths++] = steps[i];
	for (unsigned int d = 0; d <= 160; d++)
		add(p->fine, &p->n_fine, 512, d);
	for (unsigned int k = 0; coarse(k) < 3936; k++)
		add(p->fine, &p->n_fine, 512, coarse(k));
	for (unsigned int d = 3936; d < 4096; d++)
		add(p->fine, &p->n_fine, 512, d);
	static const unsigned int thin_ends[] = {40, 48, 56, 63, 64, 65, 96, 128, 160, 3936, 3968, 4000, 4024, 4032,
						 4040, 4048, 4056, 4064, 4072, 4080, 4088};
	for (unsigned int d = 0; d <= 33; d++)
		add(p->thin, &p->n_thin, 128, d);
	for (size_t i = 0; i < sizeof thin_ends / sizeof thin_ends[0]; i++)
		add(p->thin, &p->n_thin, 128, thin_ends[i]);
	for (unsigned int k = 0; coarse(k) < 3936; k += 3)
		add(p->thin, &p->n_thin, 128, coarse(k));
	for (unsigned int d = 4090; d < 4096; d++)
		add(p->thin, &p->n_thin, 128, d);
	qsort(p->thin, p->n_thin, sizeof *p->thin, cmp_uint);
	qsort(p->fine, p->n_fine, sizeof *p->fine, cmp_uint);
	memcpy(p->fine_lengths, fine_lengths, sizeof fine_lengths);
	p->n_fine_lengths = sizeof fine_lengths / sizeof fine_lengths[0];
	memcpy(p->sparse, sparse, sizeof sparse);
	p->n_sparse = sizeof sparse / sizeof sparse[0];
	p->sparse_from = 1048576 + 1;
	p->streaming_from = 65536;
	p->ticks_per_sample = 3000;
	p->samples = 5;
	p->max_passes = 7;
}

void timing_plan_quick(struct timing_plan *p)
{
	static const unsigned int lengths[] = {1, 8, 32, 64, 4096};
	static const unsigned int distances[] = {0, 1, 16, 31, 32, 64, 2061, 4064, 4095}; /* 2061: see timing_plan_full */
	memset(p, 0, sizeof *p);
	memcpy(p->lengths, lengths, sizeof lengths);
	p->n_lengths = sizeof lengths / sizeof lengths[0];
	memcpy(p->thin, distances, sizeof distances);
	p->n_thin = sizeof distances / sizeof distances[0];
	p->ticks_per_sample = 500;
	p->samples = 2;
	p->max_passes = 2;
}

static int is_fine_length(const struct timing_plan *p, unsigned int n)
{
	for (size_t i = 0; i < p->n_fine_lengths; i++)
		if (p->fine_lengths[i] == n)
			return 1;
	return 0;
}

void measurement_init(struct measurement *m, const struct timing_plan *p, const struct probe_flavor *f)
{
	memset(m, 0, sizeof *m);
	size_t most = p->n_fine > p->n_thin ? p->n_fine : p->n_thin; /* distances at one length */
	if (p->n_sparse > most)
		most = p->n_sparse;
	size_t cap = p->n_lengths * most * N_COPY_STRATEGIES;
	m->points = calloc(cap, sizeof *m->points);
	if (!m->points) {
		fprintf(stderr, "probe: out of memory\n");
		exit(1);
	}
	/* Whether this CPU runs each strategy, asked once: each ask executes
	 * CPUID, which in a guest exits to the hypervisor (Intel SDM vol. 3C,
	 * "Instructions That Cause VM Exits Unconditionally"). */
	int runs[N_COPY_STRATEGIES];
	for (int s = 0; s < N_COPY_STRATEGIES; s++)
		runs[s] = measured_strategy(f, s);
	/* Every strategy of a point is timed right after the others, so that
	 * they are compared side by side. */
	for (size_t l = 0; l < p->n_lengths; l++) {
		unsigned int n = p->lengths[l];
		int fine = is_fine_length(p, n) && p->n_fine > 0;
		int sparse = p->sparse_from && n >= p->sparse_from;
		const unsigned int *ds = sparse ? p->sparse : fine ? p->fine : p->thin;
		size_t n_ds = sparse ? p->n_sparse : fine ? p->n_fine : p->n_thin;
		for (size_t d = 0; d < n_ds; d++)
			for (int s = 0; s < N_COPY_STRATEGIES; s++) {
				if (!strategy_serves(s, n) || !runs[s] ||
				    (strategy_catalogue[s].streams && n < p->streaming_from))
					continue;
				struct point *pt = &m->points[m->n++];
				pt->strategy = s;
				pt->length = n;
				pt->distance = ds[d];
				pt->misalign = ds[d] % 64; /* the source is page-aligned */
			}
	}
}

/* The timing loop's own cost is measured by timing this instead of a copy. */
__attribute__((noinline)) static void *empty_copy(void *dst, const void *src, size_t n)
{
	(void)src;
	(void)n;
	__asm__ __volatile__("" ::: "memory");
	return dst;
}

#define ARENA TIMING_ARENA

int measured_strategy(const struct probe_flavor *f, int s)
{
	for (size_t i = 0; i < f->n_routines; i++)
		if (f->routines[i].code == s)
			return f->routines[i].isa <= f->machine_isa();
	return 0;
}

int measure_pass(struct measurement *m, const struct timing_plan *p, const struct probe_flavor *f,
		 volatile sig_atomic_t *stop, progress_fn progress)
{
	/* A fresh arena each pass: the physical pages behind it change, so the
	 * passes sample different placements, and a placement that happens to
	 * conflict in the caches shows up as spread instead of as the rule: one
	 * run's placement can make a copy several times slower across a range
	 * of distances than the next run's (measured: see
	 * docs/notebook/comment-figures-2026-12.md#a-fresh-arena-each-pass).
	 * The previous pass's arena is released only once the new one is
	 * backed, so the new pages cannot be the old ones. */
	static unsigned char *previous;
	unsigned char *arena = mmap(NULL, ARENA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED) {
		perror("probe: mmap");
		exit(1);
	}
	for (size_t i = 0; i < ARENA; i++)
		arena[i] = (unsigned char)(i * 131);
	if (previous)
		munmap(previous, ARENA);
	previous = arena;
	/* Each strategy through its own compiled entry (compile_strategies),
	 * the path a compiled tree's leaf takes to it: the entry, one jump,
	 * memmove's overlap guard where the copy goes one way; at a length a
	 * piece of it holds (plan/pieces.h), the jump to that piece, as a tree
	 * that splits its lengths there takes it (from probe version 14).
	 * Through the table dispatch instead
	 * (probe versions 2 to 9), each strategy paid its code's depth in the
	 * dispatch's code tree (plan_code_tree: one compare for the first
	 * codes, a search for the others), a cost that no compiled table pays
	 * and that grew with every strategy added, so that a strategy far down
	 * the code tree lost points it wins as it ships. The forced table
	 * aligns an aligning routine's head to PROBE_ALIGN_DST. */
	struct compiled_tables alone;
	f->force_strategy(BASELINE_STRATEGY);
	if (compile_strategies(f, &alone))
		exit(1);
	int pass = m->passes;
	double overhead = 1e300;
	for (int k = 0; k < 8; k++) {
		double o = best_of(empty_copy, arena, arena, 64, p->samples, p->ticks_per_sample / 20);
		if (o < overhead)
			overhead = o;
	}
	m->overhead = overhead;
	for (size_t i = 0; i < m->n; i++) {
		if (*stop) {
			compiled_tables_free(&alone);
			return -1;
		}
		struct point *pt = &m->points[i];
		/* A call's whole cost, call and return included: what a caller
		 * pays, and a ratio that a tick of jitter cannot blow up. */
		double t = time_copy(strategy_entry(&alone, pt->strategy, (unsigned int)pt->length), arena, pt->length,
				     pt->distance, p->samples, p->ticks_per_sample);
		pt->pass_min[pass] = t > 0.01 ? t : 0.01;
		if (progress && (i % 256 == 0 || i + 1 == m->n))
			progress(pass, i + 1, m->n, pt);
	}
	compiled_tables_free(&alone);
	m->passes++;
	return 0;
}
