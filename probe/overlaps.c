/* memmove's copies timed where the ranges overlap (overlaps.h). */
#include "overlaps.h"

#include "../common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const unsigned int lengths[] = {OVERLAP_LENGTHS};
static const int deltas[] = {OVERLAP_DELTAS};
#define N_LENGTHS (sizeof lengths / sizeof *lengths)
#define N_DELTAS (sizeof deltas / sizeof *deltas)
/* Room for the longest copy and the furthest delta on either side. */
#define MARGIN (65536u + 4096u)
#define ARENA_BYTES (4194304u + 2u * MARGIN)

/* Whether fn gives memmove's result at every point of way: the bytes a
 * patterned buffer holds after fn(buf + delta, buf, n) against those
 * after the C library's memmove. */
static int copies_right(copy_fn fn, int way, unsigned char *buf, unsigned char *want, int quick, unsigned int *bad_n,
			int *bad_delta)
{
	for (size_t i = 0; i < N_LENGTHS; i++)
		for (size_t j = 0; j < N_DELTAS; j++) {
			unsigned int n = lengths[i];
			int d = deltas[j];
			if (overlap_way(d) != way || (unsigned int)abs(d) >= n || (quick && n > 4096))
				continue;
			unsigned char *b = buf - MARGIN, *w = want - MARGIN;
			for (unsigned int k = 0; k < n + 2 * MARGIN; k++)
				b[k] = w[k] = (unsigned char)(k * 131 + k / 251);
			memmove(want + d, want, n);
			fn(buf + d, buf, n);
			if (memcmp(b, w, n + 2 * MARGIN) != 0) {
				*bad_n = n, *bad_delta = d;
				return 0;
			}
		}
	return 1;
}

void measure_overlaps(const struct probe_flavor *f, const struct timing_plan *p, int passes,
		      struct overlap_timings *o)
{
	memset(o, 0, sizeof *o);
	o->passes = passes;
	if (!f->moves)
		return;
	int quick = p->max_passes < 3;
	unsigned char *arena = mmap(NULL, 2 * ARENA_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED) {
		perror("probe: mmap");
		exit(1);
	}
	unsigned char *buf = arena + MARGIN, *want = arena + ARENA_BYTES + MARGIN;
	o->points = xmalloc(N_COPY_STRATEGIES * N_LENGTHS * N_DELTAS * sizeof *o->points);
	for (size_t r = 0; r < f->n_routines; r++) {
		const struct probe_routine *pr = &f->routines[r];
		if (!measured_strategy(f, pr->code))
			continue;
		for (int way = DIR_UP; way <= DIR_DOWN; way++) {
			unsigned int bad_n = 0;
			int bad_delta = 0;
			if (!plan_may_stand_in(pr->code, way))
				continue;
			if (!copies_right(pr->fn, way, buf, want, quick, &bad_n, &bad_delta)) {
				printf("%s: %s's routine does not copy %u bytes as memmove does at delta %d; not timed for an "
				       "overlap\n",
				       f->name, strategy_name[pr->code], bad_n, bad_delta);
				continue;
			}
			for (size_t i = 0; i < N_LENGTHS; i++)
				for (size_t j = 0; j < N_DELTAS; j++)
					if (overlap_way(deltas[j]) == way && (unsigned int)abs(deltas[j]) < lengths[i] &&
					    strategy_serves(pr->code, lengths[i]) && !(quick && lengths[i] > 4096))
						o->points[o->n++] = (struct overlap_point){pr->code, lengths[i], deltas[j], {0}};
		}
	}
	/* Pass after pass over every point, so that a moment's load touches
	 * one pass of a point, not all of them. */
	for (int k = 0; k < passes; k++)
		for (size_t i = 0; i < o->n; i++) {
			struct overlap_point *pt = &o->points[i];
			copy_fn fn = NULL;
			for (size_t r = 0; r < f->n_routines; r++)
				if (f->routines[r].code == pt->strategy)
					fn = f->routines[r].fn;
			unsigned int reps = p->ticks_per_sample / (20 + pt->length / 16);
			pt->pass_min[k] = best_of(fn, buf + pt->delta, buf, pt->length, p->samples, reps ? reps : 1);
		}
	munmap(arena, 2 * ARENA_BYTES);
}
