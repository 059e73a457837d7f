/* The kept table against every copy forward on make bench's grid
 * (grid_gate.h). */
#include "grid_gate.h"

#include "../common/bench_grid.h"
#include "../common/timer.h"
#include "../common/workload.h"
#include "../derive/chosen.h"
#include "../derive/grid_gate.h"
#include "../derive/repair.h"
#include "compiled.h"
#include "cpus.h"
#include "placed.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* A point over the noise is timed in this many sweeps in all. */
#define SWEEPS 3

/* table over baseline at n bytes, distance d: the median of
 * GRID_GATE_ROUNDS rounds' ratios, each first in turn, and in *slower how
 * many rounds the table was the slower. Each side's time is the least of
 * three samples: of one, the median ratio can condemn the C library's
 * memmove behind a jump against that memmove itself (measured: see
 * docs/notebook/comment-figures-2026-12.md#the-least-of-three-samples).
 * The table is compiled at one place, not at placed.h's three: identical
 * copies of a tree at other addresses, timed one after another, spoil
 * each other's branch predictions, so that the places timed after the
 * first run slower than one place timed over and over (measured: see
 * docs/notebook/comment-figures-2026-12.md#the-gates-table-at-one-place). */
static double point_ratio(copy_fn table, copy_fn baseline, unsigned char *arena, size_t n, unsigned int d,
			  int *slower, double *baseline_ticks)
{
	double r[GRID_GATE_ROUNDS], base[GRID_GATE_ROUNDS];
	*slower = 0;
	for (int k = 0; k < GRID_GATE_ROUNDS; k++) {
		double a, b;
		if (k % 2)
			b = time_copy(baseline, arena, n, d, 3, 3000), a = time_copy(table, arena, n, d, 3, 3000);
		else
			a = time_copy(table, arena, n, d, 3, 3000), b = time_copy(baseline, arena, n, d, 3, 3000);
		r[k] = a / b, base[k] = b;
		*slower += a > b;
	}
	*baseline_ticks = workload_median(base, GRID_GATE_ROUNDS);
	return workload_median(r, GRID_GATE_ROUNDS);
}

/* One timing of a point, or three together: its median ratio, in how
 * many of its rounds the table was the slower, and every copy forward's
 * ticks. */
struct point_timing {
	double ratio, baseline_ticks;
	int slower, rounds;
};

static struct point_timing time_point(copy_fn table, copy_fn baseline, unsigned char *arena, size_t n, size_t j)
{
	struct point_timing p = {.rounds = GRID_GATE_ROUNDS};
	p.ratio = point_ratio(table, baseline, arena, n, bench_grid_distances[j], &p.slower, &p.baseline_ticks);
	return p;
}

/* Whether point (i, j) of g is timed in sweep k of time_points: every
 * point to time in the first, those whose median was over the noise in it
 * in the others, lost or not: the rounds of three sweeps together judge
 * those (grid_gate_slower_needed). */
static int in_sweep(const struct gate_grid *g, struct point_timing (*t)[SWEEPS][BENCH_GRID_DISTANCES], int k, size_t i,
		    size_t j, double noise)
{
	return g->retime[i][j] && (k == 0 || t[i][0][j].ratio > 1 + noise);
}

/* Sweep k of time_points: r compiled at a place no table took before,
 * its copies on a fresh arena. Nonzero after saying why. */
static int sweep(const struct probe_flavor *f, const struct derived_rule *r, const struct gate_grid *g,
		 struct point_timing (*t)[SWEEPS][BENCH_GRID_DISTANCES], int k, double noise)
{
	struct compiled_tables c = {0};
	unsigned char *arena = mmap(NULL, TIMING_ARENA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED) {
		fprintf(stderr, "probe: no memory for the grid gate's buffers\n");
		return -1;
	}
	memset(arena, 0x5a, TIMING_ARENA);
	f->force_strategy(BASELINE_STRATEGY);
	int rc = compile_tables(f, r, 1, 0, &c);
	copy_fn baseline = f->baseline_copy();
	for (size_t i = 0; rc == 0 && i < g->n_lengths; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			if (in_sweep(g, t, k, i, j, noise))
				t[i][k][j] = time_point(c.entries[0], baseline, arena, g->lengths[i], j);
	compiled_tables_free(&c);
	munmap(arena, TIMING_ARENA);
	return rc;
}

/* Whether timing a is worse for the table than b: a loss where b is
 * none, else the larger ratio. */
static int worse(const struct point_timing *a, const struct point_timing *b, double noise)
{
	int la = grid_gate_loses(a->ratio, a->slower, a->rounds, noise),
	    lb = grid_gate_loses(b->ratio, b->slower, b->rounds, noise);
	return la != lb ? la : a->ratio > b->ratio;
}

/* Sweep k in a process of its own: a child forked for it compiles r and
 * times into t, shared with it, and exits, so that a point's last timing
 * is another process's, as a second run of the probe would time it (its
 * new mappings, the table's code and the arena, are its own; what the
 * parent allocated it holds only as copies). Nonzero after saying why. */
static int sweep_apart(const struct probe_flavor *f, const struct derived_rule *r, const struct gate_grid *g,
		       struct point_timing (*t)[SWEEPS][BENCH_GRID_DISTANCES], int k, double noise)
{
	fflush(NULL);
	pid_t child = fork();
	if (child < 0) {
		perror("probe: fork for the grid gate's last sweep");
		return -1;
	}
	if (child == 0)
		_exit(sweep(f, r, g, t, k, noise) ? 1 : 0);
	int status;
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR) {
			perror("probe: waiting for the grid gate's last sweep");
			return -1;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "probe: the grid gate's last sweep failed\n");
		return -1;
	}
	return 0;
}

/* Point (i, j)'s timings pooled: its median ratio and ticks, the median
 * of its sweeps'; its slower rounds, those of all; its least median. */
static struct point_timing pooled(const struct gate_grid *g, struct point_timing (*t)[SWEEPS][BENCH_GRID_DISTANCES],
				  size_t i, size_t j, double noise, double *least)
{
	const struct point_timing *p = &t[i][0][j], *q = &t[i][1][j], *u = &t[i][2][j];
	*least = p->ratio;
	if (!in_sweep(g, t, 1, i, j, noise))
		return *p;
	*least = fmin(p->ratio, fmin(q->ratio, u->ratio));
	return (struct point_timing){median3(p->ratio, q->ratio, u->ratio),
				     median3(p->baseline_ticks, q->baseline_ticks, u->baseline_ticks),
				     p->slower + q->slower + u->slower, p->rounds + q->rounds + u->rounds};
}

/* Times r at every point of g marked retime (or every point, where all),
 * on each CPU of cpus_timed, pinned there: first every point, then each
 * point whose median was over the noise twice more, in two more sweeps
 * over those points, the last in a process of its own (sweep_apart); its
 * ratio and ticks the median of its three timings, its slower rounds
 * those of all three, its least median kept; a point's figures in g are
 * those of the CPU where they are worst. Each sweep compiles r at a new
 * place and copies in a fresh arena: a point's ratio moves with where
 * the copies' code and buffers lie, which one sweep cannot show
 * (docs/notebook/library-grid-2026-12.md). Nonzero after saying why. */
static int time_points(const struct probe_flavor *f, const struct derived_rule *r, struct gate_grid *g,
		       double noise, int all)
{
	size_t bytes = GATE_LENGTHS_MAX * sizeof(struct point_timing[SWEEPS][BENCH_GRID_DISTANCES]);
	struct point_timing(*t)[SWEEPS][BENCH_GRID_DISTANCES] =
		mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED) {
		fprintf(stderr, "probe: out of memory\n");
		return -1;
	}
	for (size_t i = 0; i < g->n_lengths; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
			g->retime[i][j] |= all;
	int cpus[CPUS_TIMED_MAX], n_cpus = cpus_timed(cpus), rc = 0;
	g->family = g->n_lengths * BENCH_GRID_DISTANCES * (size_t)(n_cpus > 0 ? n_cpus : 1);
	for (int c = 0; c < n_cpus && rc == 0; c++) {
		if (cpus_pin(cpus[c]))
			continue;
		memset(t, 0, bytes);
		for (int k = 0; k < SWEEPS && rc == 0; k++)
			rc = k == SWEEPS - 1 ? sweep_apart(f, r, g, t, k, noise) : sweep(f, r, g, t, k, noise);
		for (size_t i = 0; rc == 0 && i < g->n_lengths; i++)
			for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++) {
				if (!g->retime[i][j])
					continue;
				double least;
				struct point_timing m = pooled(g, t, i, j, noise, &least),
						    now = {g->ratio[i][j], g->baseline_ticks[i][j], g->slower[i][j],
							   g->rounds[i][j]};
				if (c == 0 || worse(&m, &now, noise))
					g->ratio[i][j] = m.ratio, g->slower[i][j] = m.slower, g->rounds[i][j] = m.rounds,
					g->baseline_ticks[i][j] = m.baseline_ticks, g->least[i][j] = least;
			}
	}
	cpus_pin(cpus_home());
	munmap(t, bytes);
	f->force_strategy(BASELINE_STRATEGY);
	return rc;
}

static void print_repair(const struct grid_repair *p)
{
	printf("  grid gate: %.3fx at %u bytes, d = %u: %u..%u bytes of that class copy by %s now, not %s\n", p->ratio,
	       p->length, p->distance, p->lo, p->hi, strategy_name[p->to], strategy_name[p->from]);
}

/* The gate's verdict on r as last timed in g: refused where a point
 * loses (gate_point_loses), worst the largest ratio it is judged by of a
 * point that loses, where one does, else of any point. Says where a cell
 * that copies as every copy forward does timed slower than its tree can
 * make it. */
static struct grid_gate gate_verdict(const struct timings *t, const struct derived_rule *r, struct gate_grid *g,
				     double noise, int *worst_slower, int *worst_rounds)
{
	struct grid_gate gate = {.tried = 1, .worst = 0};
	int reference = timings_reference(t);
	gate_grid_holm(g, r, reference, noise);
	for (size_t i = 0; i < g->n_lengths; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++) {
			double judged = gate_point_ratio(g, r, reference, i, j);
			gate.refused |= gate_point_loses(g, r, reference, i, j, noise);
			if (judged < g->ratio[i][j] && grid_gate_loses(g->ratio[i][j], g->slower[i][j], g->rounds[i][j], noise))
				printf("  grid gate: %.3fx at %u bytes, d = %u, where the cell copies by %s as every copy "
				       "forward does, behind a tree of %.1f ticks (every copy forward %.0f): judged %.3fx\n",
				       g->ratio[i][j], g->lengths[i], bench_grid_distances[j], strategy_name[reference],
				       gate_path_ticks(g, r, g->lengths[i], bench_grid_distances[j]),
				       g->baseline_ticks[i][j], judged);
		}
	printf("  grid gate: the table saves %.2f ticks a call on the workload, the paths to its cells that copy by "
	       "%s cost it %.2f: %s\n",
	       g->gain_ticks, strategy_name[reference], g->workload_path_ticks,
	       g->path_paid ? "paid, those cells are judged net of their paths"
			    : "not paid, their paths are judged as losses");
	for (size_t i = 0; i < g->n_lengths; i++)
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++) {
			double judged = gate_point_ratio(g, r, reference, i, j);
			if (judged > gate.worst && (!gate.refused || gate_point_loses(g, r, reference, i, j, noise)))
				gate.worst = judged, gate.length = g->lengths[i],
				gate.distance = bench_grid_distances[j], *worst_slower = g->slower[i][j],
				*worst_rounds = g->rounds[i][j];
		}
	return gate;
}

int try_grid_gate(const struct probe_flavor *f, const struct timings *t, struct dispatch_run *d, double noise,
		  double placement_sd,
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
	if (!g) {
		fprintf(stderr, "probe: out of memory\n");
		return -1;
	}
	gate_grid_cover(g, &r, longest > UINT_MAX ? UINT_MAX : (unsigned int)longest);
	g->path_ticks = dispatch_predicted_band_ticks(d);
	g->workload_band_ticks = dispatch_band_ticks(d) + g->path_ticks;
	g->gain_ticks = dispatch_gain_ticks(d);
	g->placement_sd = placement_sd;
	int cpus[CPUS_TIMED_MAX], n_cpus = cpus_timed(cpus);
	printf("  grid gate: on CPU");
	for (int c = 0; c < n_cpus; c++)
		printf("%s %d", c ? "," : n_cpus > 1 ? "s" : "", cpus[c]);
	printf(", each point judged by the CPU where it does worst\n");
	int rc = time_points(f, &r, g, noise, 1), stuck = 0, made = 1, shown = 0;
	for (int round = 0; rc == 0 && made && !stuck && round < REPAIR_ROUNDS; round++) {
		stuck = gate_repair_round(t, &r, g, d, noise, &made);
		for (int k = 0; k < d->n_repairs; k++)
			if (k >= shown)
				print_repair(&d->repairs[k]);
		shown = d->n_repairs;
		if (stuck)
			printf("  grid gate: %.3fx at %u bytes, d = %u, where the cell copies by %s: no repair: %s\n",
			       g->ratio[g->stuck_length][g->stuck_distance], g->lengths[g->stuck_length],
			       bench_grid_distances[g->stuck_distance], strategy_name[g->stuck_from], g->stuck_why);
		if (made && !stuck) {
			gate_grid_cover(g, &r, longest > UINT_MAX ? UINT_MAX : (unsigned int)longest);
			rc = time_points(f, &r, g, noise, 0);
		}
	}
	int worst_slower = 0, worst_rounds = 0;
	struct grid_gate gate = gate_verdict(t, &r, g, noise, &worst_slower, &worst_rounds);
	size_t n_lengths = g->n_lengths;
	free(g);
	if (rc)
		return -1;
	d->gate = gate;
	printf("  grid gate: the %stable at %zu lengths (make bench's grid and every band's own) against every copy "
	       "forward (%s): worst %.3fx at %u bytes, d = %u, slower in %d of %d rounds: %s\n",
	       d->n_repairs ? "repaired " : "kept ", n_lengths, f->moves ? "the C library's memmove" : "rep movsb", gate.worst,
	       gate.length, gate.distance, worst_slower, worst_rounds,
	       gate.refused ? "refused, every copy forward stays" : "passed");
	return 0;
}
