/* The kept table against every copy forward on make bench's grid
 * (grid_gate.h). */
#include "grid_gate.h"

#include "../common/bench_grid.h"
#include "../common/timer.h"
#include "../common/workload.h"
#include "compiled.h"
#include "placed.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* table over baseline at n bytes, distance d: the median of
 * GRID_GATE_ROUNDS rounds' ratios, each first in turn. The table is
 * compiled at one place, not at placed.h's three: identical copies of a
 * tree at other addresses, timed one after another, spoil each other's
 * branch predictions. On a Zen 4 guest zen4's user table, compiled at
 * eight places and timed at 64 bytes, d = 33, took 0.93x the C library's
 * time at the place timed first and 1.00-1.21x at the seven timed after
 * it, whichever order the places were timed in; one place timed eight
 * times over took 0.81-0.93x (a throwaway timing of probe version 18's
 * table, not a recorded run). */
static double point_ratio(copy_fn table, copy_fn baseline, unsigned char *arena, size_t n, unsigned int d)
{
	double r[GRID_GATE_ROUNDS];
	for (int k = 0; k < GRID_GATE_ROUNDS; k++) {
		double a, b;
		if (k % 2)
			b = time_copy(baseline, arena, n, d, 1, 3000), a = time_copy(table, arena, n, d, 1, 3000);
		else
			a = time_copy(table, arena, n, d, 1, 3000), b = time_copy(baseline, arena, n, d, 1, 3000);
		r[k] = a / b;
	}
	return workload_median(r, GRID_GATE_ROUNDS);
}

int try_grid_gate(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise,
		  size_t longest)
{
	memset(&d->gate, 0, sizeof d->gate);
	if (!dispatch_keeps_table(d))
		return 0;
	struct derived_rule r;
	if (derive_chosen(t, d, &r)) {
		fprintf(stderr, "probe: %s\n", r.note);
		return -1;
	}
	struct compiled_tables c;
	f->force_strategy(BASELINE_STRATEGY);
	unsigned char *arena = mmap(NULL, TIMING_ARENA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED) {
		fprintf(stderr, "probe: no memory for the grid gate's buffers\n");
		return -1;
	}
	if (compile_tables(f, &r, 1, 0, &c)) {
		compiled_tables_free(&c);
		munmap(arena, TIMING_ARENA);
		return -1;
	}
	memset(arena, 0x5a, TIMING_ARENA);
	struct grid_gate g = {.tried = 1, .worst = 0};
	copy_fn baseline = f->baseline_copy();
	for (size_t i = 0; i < BENCH_GRID_LENGTHS && bench_grid_lengths[i] <= longest; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++) {
			size_t n = bench_grid_lengths[i];
			unsigned int dist = bench_grid_distances[j];
			double ratio = point_ratio(c.entries[0], baseline, arena, n, dist);
			/* A loss is timed twice more: one slow spell of a guest
			 * does not refuse a table. */
			if (grid_gate_refuses(ratio, noise))
				ratio = median3(ratio, point_ratio(c.entries[0], baseline, arena, n, dist),
						point_ratio(c.entries[0], baseline, arena, n, dist));
			if (ratio > g.worst)
				g.worst = ratio, g.length = (unsigned int)n, g.distance = dist;
		}
	compiled_tables_free(&c);
	munmap(arena, TIMING_ARENA);
	f->force_strategy(BASELINE_STRATEGY);
	g.refused = grid_gate_refuses(g.worst, noise);
	d->gate = g;
	printf("  grid gate: the kept table on make bench's grid against every copy forward (%s): worst %.3fx at %u "
	       "bytes, d = %u: %s\n",
	       f->moves ? "the C library's memmove" : "rep movsb", g.worst, g.length, g.distance,
	       g.refused ? "refused, every copy forward stays" : "passed");
	return 0;
}
