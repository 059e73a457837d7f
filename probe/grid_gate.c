/* The kept table against every copy forward on make bench's grid
 * (grid_gate.h). */
#include "grid_gate.h"

#include "../common/bench_grid.h"
#include "../common/timer.h"
#include "../common/workload.h"
#include "../derive/repair.h"
#include "compiled.h"
#include "placed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* table over baseline at n bytes, distance d: the median of
 * GRID_GATE_ROUNDS rounds' ratios, each first in turn, and in *slower how
 * many rounds the table was the slower. Each side's time is the least of
 * three samples: of one, the median ratio at 16384 bytes condemned
 * strategy libc, the C library's memmove behind a jump, at 1.07-1.30x
 * that memmove on a Zen 5 guest (2026-12-06, throwaway timings). The table is
 * compiled at one place, not at placed.h's three: identical copies of a
 * tree at other addresses, timed one after another, spoil each other's
 * branch predictions. On a Zen 4 guest zen4's user table, compiled at
 * eight places and timed at 64 bytes, d = 33, took 0.93x the C library's
 * time at the place timed first and 1.00-1.21x at the seven timed after
 * it, whichever order the places were timed in; one place timed eight
 * times over took 0.81-0.93x (a throwaway timing of probe version 18's
 * table, not a recorded run). */
static double point_ratio(copy_fn table, copy_fn baseline, unsigned char *arena, size_t n, unsigned int d,
			  int *slower)
{
	double r[GRID_GATE_ROUNDS];
	*slower = 0;
	for (int k = 0; k < GRID_GATE_ROUNDS; k++) {
		double a, b;
		if (k % 2)
			b = time_copy(baseline, arena, n, d, 3, 3000), a = time_copy(table, arena, n, d, 3, 3000);
		else
			a = time_copy(table, arena, n, d, 3, 3000), b = time_copy(baseline, arena, n, d, 3, 3000);
		r[k] = a / b;
		*slower += a > b;
	}
	return workload_median(r, GRID_GATE_ROUNDS);
}

/* A point's ratio and slower rounds, a loss timed twice more (the median
 * of the three of each): one slow spell of a guest does not condemn a
 * cell. */
static double confirmed_ratio(copy_fn table, copy_fn baseline, unsigned char *arena, size_t n, unsigned int d,
			      double noise, int *slower)
{
	double ratio = point_ratio(table, baseline, arena, n, d, slower);
	if (grid_gate_loses(ratio, *slower, noise)) {
		int s2, s3;
		double r2 = point_ratio(table, baseline, arena, n, d, &s2), r3 = point_ratio(table, baseline, arena, n, d, &s3);
		ratio = median3(ratio, r2, r3);
		*slower = (int)median3(*slower, s2, s3);
	}
	return ratio;
}

/* Times r, compiled at one place, at every point of g marked retime (or
 * every point, where all). Nonzero after saying why. */
static int time_points(const struct probe_flavor *f, const struct derived_rule *r, unsigned char *arena,
		       struct gate_grid *g, double noise, int all)
{
	struct compiled_tables c;
	f->force_strategy(BASELINE_STRATEGY);
	if (compile_tables(f, r, 1, 0, &c)) {
		compiled_tables_free(&c);
		return -1;
	}
	copy_fn baseline = f->baseline_copy();
	for (size_t i = 0; i < g->n_lengths; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			if (all || g->retime[i][j])
				g->ratio[i][j] = confirmed_ratio(c.entries[0], baseline, arena, bench_grid_lengths[i],
								 bench_grid_distances[j], noise, &g->slower[i][j]);
	compiled_tables_free(&c);
	f->force_strategy(BASELINE_STRATEGY);
	return 0;
}

static void print_repair(const struct grid_repair *p)
{
	printf("  grid gate: %.3fx at %u bytes, d = %u: %u..%u bytes of that class copy by %s now, not %s\n", p->ratio,
	       p->length, p->distance, p->lo, p->hi, strategy_name[p->to], strategy_name[p->from]);
}

int try_grid_gate(const struct probe_flavor *f, const struct table *t, struct dispatch_run *d, double noise,
		  size_t longest)
{
	memset(&d->gate, 0, sizeof d->gate);
	d->records_repairs = 1, d->n_repairs = 0;
	if (!dispatch_keeps_table(d))
		return 0;
	struct derived_rule r;
	if (derive_chosen(t, d, &r)) {
		fprintf(stderr, "probe: %s\n", r.note);
		return -1;
	}
	struct gate_grid *g = calloc(1, sizeof *g);
	unsigned char *arena = mmap(NULL, TIMING_ARENA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!g || arena == MAP_FAILED) {
		fprintf(stderr, "probe: no memory for the grid gate's buffers\n");
		free(g);
		return -1;
	}
	memset(arena, 0x5a, TIMING_ARENA);
	while (g->n_lengths < BENCH_GRID_LENGTHS && bench_grid_lengths[g->n_lengths] <= longest)
		g->n_lengths++;
	int rc = time_points(f, &r, arena, g, noise, 1), stuck = 0, made = 1, shown = 0;
	for (int round = 0; rc == 0 && made && !stuck && round < REPAIR_ROUNDS; round++) {
		stuck = gate_repair_round(t, &r, g, d, noise, &made);
		for (int k = 0; k < d->n_repairs; k++)
			if (k >= shown)
				print_repair(&d->repairs[k]);
		shown = d->n_repairs;
		if (stuck)
			printf("  grid gate: %.3fx at %zu bytes, d = %u, where the cell copies by %s: no repair: %s\n",
			       g->ratio[g->stuck_length][g->stuck_distance], bench_grid_lengths[g->stuck_length],
			       bench_grid_distances[g->stuck_distance], strategy_name[g->stuck_from], g->stuck_why);
		if (made && !stuck)
			rc = time_points(f, &r, arena, g, noise, 0);
	}
	/* worst: the largest ratio of a point that loses, where one does,
	 * else of any point. */
	struct grid_gate gate = {.tried = 1, .worst = 0};
	int worst_slower = 0;
	for (size_t i = 0; i < g->n_lengths; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			gate.refused |= grid_gate_loses(g->ratio[i][j], g->slower[i][j], noise);
	for (size_t i = 0; i < g->n_lengths; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			if (g->ratio[i][j] > gate.worst &&
			    (!gate.refused || grid_gate_loses(g->ratio[i][j], g->slower[i][j], noise)))
				gate.worst = g->ratio[i][j], gate.length = (unsigned int)bench_grid_lengths[i],
				gate.distance = bench_grid_distances[j], worst_slower = g->slower[i][j];
	free(g);
	munmap(arena, TIMING_ARENA);
	if (rc)
		return -1;
	d->gate = gate;
	printf("  grid gate: the %stable on make bench's grid against every copy forward (%s): worst %.3fx at %u "
	       "bytes, d = %u, slower in %d of %d rounds: %s\n",
	       d->n_repairs ? "repaired " : "kept ", f->moves ? "the C library's memmove" : "rep movsb", gate.worst,
	       gate.length, gate.distance, worst_slower, GRID_GATE_ROUNDS,
	       gate.refused ? "refused, every copy forward stays" : "passed");
	return 0;
}
