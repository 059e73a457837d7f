#include "measure.h"

#include "copy_rule.h"
#include "timer.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void plan_full(struct plan *p)
{
	static const unsigned int lengths[] = {64, 256, 1024, 4096, 8192, 65536};
	memset(p, 0, sizeof *p);
	memcpy(p->lengths, lengths, sizeof lengths);
	p->n_lengths = 6;
	for (unsigned int d = 0; d <= 160; d++)
		p->distances[p->n_distances++] = d;
	for (unsigned int d = 192; d < 3936; d += 64)
		p->distances[p->n_distances++] = d;
	for (unsigned int d = 3936; d < 4096; d++)
		p->distances[p->n_distances++] = d;
	p->align_lengths[0] = 1024;
	p->align_lengths[1] = 4096;
	p->align_lengths[2] = 65536;
	p->n_align_lengths = 3;
	p->samples = 25;
	p->max_passes = 7;
	p->stable_passes = 3;
}

void plan_quick(struct plan *p)
{
	static const unsigned int lengths[] = {64, 4096};
	memset(p, 0, sizeof *p);
	memcpy(p->lengths, lengths, sizeof lengths);
	p->n_lengths = 2;
	for (unsigned int d = 0; d <= 40; d++)
		p->distances[p->n_distances++] = d;
	p->distances[p->n_distances++] = 2048;
	p->distances[p->n_distances++] = 4095;
	p->align_lengths[0] = 4096;
	p->n_align_lengths = 1;
	p->samples = 3;
	p->max_passes = 2;
	p->stable_passes = 1;
}

void measurement_init(struct measurement *m, const struct plan *p)
{
	memset(m, 0, sizeof *m);
	size_t cap = p->n_lengths * p->n_distances * 2 + p->n_align_lengths * 64;
	m->points = calloc(cap, sizeof *m->points);
	if (!m->points) {
		fprintf(stderr, "probe: out of memory\n");
		exit(1);
	}
	for (size_t l = 0; l < p->n_lengths; l++)
		for (size_t d = 0; d < p->n_distances; d++)
			for (int s = FORWARD; s <= DOWN; s++) {
				struct point *pt = &m->points[m->n++];
				pt->strategy = (enum strategy)s;
				pt->length = p->lengths[l];
				pt->distance = p->distances[d];
				pt->misalign = p->distances[d] % 64; /* the source is page-aligned */
			}
	for (size_t l = 0; l < p->n_align_lengths; l++)
		for (unsigned int mis = 0; mis < 64; mis++) {
			struct point *pt = &m->points[m->n++];
			pt->strategy = FORWARD_MISALIGNED;
			pt->length = p->align_lengths[l];
			pt->distance = 2048 + mis; /* far from any distance that stalls */
			pt->misalign = mis;
		}
}

void measurement_free(struct measurement *m)
{
	free(m->points);
	memset(m, 0, sizeof *m);
}

/* The timing loop's own cost is measured by timing this instead of a copy. */
__attribute__((noinline)) static void *empty_copy(void *dst, const void *src, size_t n)
{
	(void)src;
	(void)n;
	__asm__ __volatile__("" ::: "memory");
	return dst;
}

/* Source page-aligned at the start; the destination (distance mod 4096)
 * above it and past its end, so the two never overlap. */
#define ARENA (4u * 65536u)

int measure_pass(struct measurement *m, const struct plan *p, volatile sig_atomic_t *stop, progress_fn progress)
{
	/* A fresh arena each pass: the physical pages behind it change, so the
	 * passes sample different placements, and a placement that happens to
	 * conflict in the caches shows up as spread instead of as the rule
	 * (one run here saw rep movsb at 8 KiB take 10x longer at d = 1..1023,
	 * and no other run did). The previous pass's arena is released only
	 * once the new one is backed, so the new pages cannot be the old ones. */
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
	/* Forward copies time rep movsb alone: no alignment head. */
	static const struct uc_rule plain = {0, 0, 0, "", ""};
	uc_rule_install(&plain);
	int pass = m->passes;
	double overhead = 1e300;
	for (int k = 0; k < 8; k++) {
		double o = best_of(empty_copy, arena, arena, 64, p->samples);
		if (o < overhead)
			overhead = o;
	}
	m->overhead = overhead;
	for (size_t i = 0; i < m->n; i++) {
		if (*stop)
			return -1;
		struct point *pt = &m->points[i];
		size_t gap = pt->distance;
		while (gap < pt->length)
			gap += 4096;
		copy_fn fn = pt->strategy == DOWN ? uc_copy_down : uc_copy_forward;
		double t = best_of(fn, arena + gap, arena, pt->length, p->samples) - overhead;
		pt->pass_min[pass] = t > 0 ? t : 0;
		if (progress && (i % 64 == 0 || i + 1 == m->n))
			progress(pass, i + 1, m->n, pt);
	}
	m->passes++;
	return 0;
}

void measurement_table(const struct measurement *m, int pass, struct table *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < m->n; i++) {
		const struct point *pt = &m->points[i];
		struct row r = {pt->strategy, pt->length, pt->distance, pt->misalign, 0, 0};
		if (pass >= 0) {
			r.ticks = pt->pass_min[pass];
		} else {
			double lo = 1e300, hi = 0;
			for (int k = 0; k < m->passes; k++) {
				if (pt->pass_min[k] < lo)
					lo = pt->pass_min[k];
				if (pt->pass_min[k] > hi)
					hi = pt->pass_min[k];
			}
			r.ticks = lo;
			r.spread = lo > 0 ? (hi - lo) / lo : 0;
		}
		table_add(out, r);
	}
}
