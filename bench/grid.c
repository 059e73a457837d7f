/* The grid of make bench: at each length and distance, uc_memcpy under the
 * installed rule, each strategy's routine alone, one rep movsb and the C
 * library's copies, in rounds. */
#include "copy_rule.h"
#include "../common/bench_grid.h"
#include "../common/text_poke.h"
#include "paired.h"
#include "report.h"
#include "routines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>


/* The times of one grid point, each the minimum over the rounds. */
struct point_times {
	double uc, movsb, libc, move, libc_mv, uct, strat[UC_N_STRATEGIES];
	double best;    /* the fastest of the strategies alone and uc_memcpy */
	double regret;  /* uc_memcpy over best_s's routine alone, timed again in turns */
	int choice;     /* the strategy uc_memcpy takes here */
	int best_s;
};

/* What the grid gathers over its points for the summary and the figures. */
struct tally {
	double worst_vs_movsb, worst_vs_libc, log_vs_libc, worst_compiled, worst_twin, log_move, worst_move;
	size_t at_l, at_d, at_libc_l, at_libc_d, at_compiled_l, at_compiled_d, at_twin_l, at_twin_d;
	size_t uc_over, compiled_over, twin_over, points;
	/* uc_memcpy over the best copy alone, below 64 bytes and from 64 up. */
	double regret[2][BENCH_GRID_LENGTHS * BENCH_GRID_DISTANCES];
	size_t n_regret[2];
};

/* Rounds over every copy, each keeping its minimum, so that a slow spell of
 * the machine hits all of them alike. */
static void time_point(unsigned char *arena, int samples, const struct target *compiled, size_t n, unsigned int d,
		       struct point_times *p)
{
	p->choice = uc_copy_strategy(arena + 8192 + d, arena + 8192, n);
	p->uc = p->movsb = p->libc = p->move = p->libc_mv = p->uct = 1e300;
	for (int s = 0; s < UC_N_STRATEGIES; s++)
		p->strat[s] = 1e300;
	for (int round = 0; round < ROUNDS; round++) {
		p->uc = fmin(p->uc, time_copy(uc_memcpy, arena, n, d, samples, 3000));
		p->movsb = fmin(p->movsb, time_copy(rep_movsb, arena, n, d, samples, 3000));
		if (compiled)
			p->uct = fmin(p->uct, time_copy(compiled->memcpy, arena, n, d, samples, 3000));
		p->libc = fmin(p->libc, time_copy(libc_copy, arena, n, d, samples, 3000));
#ifdef UC_HAS_MEMMOVE
		p->move = fmin(p->move, time_copy(uc_memmove, arena, n, d, samples, 3000));
		p->libc_mv = fmin(p->libc_mv, time_copy(libc_move, arena, n, d, samples, 3000));
#endif
		for (int s = 0; s < UC_N_STRATEGIES; s++)
			if (strategy_timed(s, n))
				p->strat[s] = fmin(p->strat[s], time_copy(strategy_routine(s), arena, n, d, samples, 3000));
	}
	p->best = 1e300;
	p->best_s = 0;
	for (int s = 0; s < UC_N_STRATEGIES; s++)
		if (p->strat[s] < p->best)
			p->best = p->strat[s], p->best_s = s;
	if (p->uc < p->best) /* uc_memcpy is a strategy too: the best measured */
		p->best = p->uc, p->best_s = p->choice;
	/* The least of a dozen minima favours whichever copy had the luckiest
	 * round: the regret times the best strategy (where uc_memcpy was, its
	 * own choice) again beside uc_memcpy. */
	p->regret = paired_ratio(uc_memcpy, strategy_routine(p->best_s), arena, n, d, 3000);
}

static void print_header(FILE *csv, const struct target *compiled)
{
	fprintf(csv, "n,d,choice,uc_memcpy,best,best_strategy,regret,vs_rep_movsb,libc_vs_rep_movsb,vs_libc,"
		     "memmove_vs_libc,compiled_vs_rep_movsb\n");
	printf("grid: uc_memcpy under the installed table (ticks per call, each the least of its rounds; ratios lower\n"
	       "  is faster; regret: uc_memcpy over the best strategy alone, the two timed again in turns, the median\n"
	       "  of 15 ratios)\n\n");
	printf("%8s %5s %-16s %10s %10s %-16s %7s %10s %10s %9s", "n", "d", "choice", "uc_memcpy", "best", "best is",
	       "regret", "/rep movsb", "libc/movsb", "/libc");
#ifdef UC_HAS_MEMMOVE
	printf(" %13s", "move/libc mv");
#endif
	if (compiled)
		printf(" %11s", "uct/movsb");
	printf("\n");
}

static void print_point(FILE *csv, const struct target *compiled, size_t n, unsigned int d, const struct point_times *p)
{
	printf("%8zu %5u %-16s %10.1f %10.1f %-16s %7.3f %10.3f %10.3f %9.3f", n, d, strategy_label(p->choice), p->uc,
	       p->best, strategy_label(p->best_s), p->regret, p->uc / p->movsb, p->libc / p->movsb,
	       p->uc / p->libc);
#ifdef UC_HAS_MEMMOVE
	printf(" %13.3f", p->move / p->libc_mv);
#endif
	if (compiled)
		printf(" %11.3f", p->uct / p->movsb);
	printf("\n");
	fprintf(csv, "%zu,%u,%s,%.2f,%.2f,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", n, d, strategy_label(p->choice), p->uc,
		p->best, strategy_label(p->best_s), p->regret, p->uc / p->movsb, p->libc / p->movsb,
		p->uc / p->libc, p->move < 1e300 ? p->move / p->libc_mv : 0, compiled ? p->uct / p->movsb : 0);
}

static void tally_point(struct tally *t, struct figures *f, size_t n, unsigned int d, const struct point_times *p)
{
	double uc = p->uc, movsb = p->movsb, libc = p->libc;
#ifdef UC_HAS_MEMMOVE
	t->log_move += log(p->move / p->libc_mv);
	t->worst_move = fmax(t->worst_move, p->move / p->libc_mv);
#endif
	if (p->uct < 1e300) {
		t->compiled_over += p->uct / movsb > 1.03;
		if (p->uct / movsb > t->worst_compiled)
			t->worst_compiled = p->uct / movsb, t->at_compiled_l = n, t->at_compiled_d = d;
	}
	if (uc / movsb > t->worst_vs_movsb)
		t->worst_vs_movsb = uc / movsb, t->at_l = n, t->at_d = d;
	/* The entry's jump and tree over the body it reaches. */
	if (strategy_timed(p->choice, n) && uc / p->strat[p->choice] > f->worst_vs_chosen)
		f->worst_vs_chosen = uc / p->strat[p->choice], f->worst_vs_chosen_n = n, f->worst_vs_chosen_d = d;
	if (n >= 64 && n <= 256 && uc / libc > f->worst_vs_libc_small)
		f->worst_vs_libc_small = uc / libc;
	t->uc_over += uc / movsb > 1.03;
	/* uc_copy_forward and this file's rep_movsb run the same instructions
	 * (one rep movsb) from two addresses: their ratio, the twin line, is
	 * the floor under the /rep movsb column, what placement alone costs. */
	double twin = fmax(p->strat[UC_STRATEGY_FORWARD] / movsb, movsb / p->strat[UC_STRATEGY_FORWARD]);
	t->twin_over += twin > 1.03;
	if (twin > t->worst_twin)
		t->worst_twin = twin, t->at_twin_l = n, t->at_twin_d = d;
	if (uc / libc > t->worst_vs_libc)
		t->worst_vs_libc = uc / libc, t->at_libc_l = n, t->at_libc_d = d;
	t->log_vs_libc += log(uc / libc);
	int large = n >= 64;
	t->regret[large][t->n_regret[large]++] = p->regret;
	t->points++;
}

/* The value below which 90% of the n values v lie (sorted in place). */
static double percentile_90(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof *v, cmp_double);
	return v[(size_t)ceil(0.9 * (double)n) - 1];
}

static void print_summary(struct tally *t, const struct target *compiled, struct figures *f)
{
	f->worst_vs_movsb = t->worst_vs_movsb, f->worst_vs_movsb_n = t->at_l, f->worst_vs_movsb_d = t->at_d;
	f->worst_twin = t->worst_twin;
	f->p90_vs_best[0] = percentile_90(t->regret[0], t->n_regret[0]);
	f->p90_vs_best[1] = percentile_90(t->regret[1], t->n_regret[1]);
	double points = (double)t->points;
	printf("worst uc_memcpy / rep movsb on the grid: %.3f (n = %zu, d = %zu); above 1.03 at %zu of %zu points\n",
	       t->worst_vs_movsb, t->at_l, t->at_d, t->uc_over, t->points);
	if (compiled)
		printf("worst uct_memcpy (the table compiled for %s) / rep movsb on the grid: %.3f (n = %zu, d = %zu); "
		       "above 1.03 at %zu of %zu points\n",
		       compiled->entry, t->worst_compiled, t->at_compiled_l, t->at_compiled_d, t->compiled_over,
		       t->points);
	printf("worst uc_memcpy / its chosen strategy called alone on the grid: %.3f (n = %zu, d = %zu)\n",
	       f->worst_vs_chosen, f->worst_vs_chosen_n, f->worst_vs_chosen_d);
	printf("uc_memcpy / the best copy alone (the regret), 90th percentile on the grid: %.3f below 64 bytes, %.3f "
	       "from 64 up\n",
	       f->p90_vs_best[0], f->p90_vs_best[1]);
	printf("the same rep movsb from two addresses (uc_copy_forward against rep movsb): apart by up to %.3fx "
	       "(n = %zu, d = %zu), by more than 3%% at %zu of %zu points\n",
	       t->worst_twin, t->at_twin_l, t->at_twin_d, t->twin_over, t->points);
	printf("worst uc_memcpy / libc memcpy on the grid: %.3f (n = %zu, d = %zu); geometric mean %.3f, a speed-up "
	       "of %.3fx\n",
	       t->worst_vs_libc, t->at_libc_l, t->at_libc_d, exp(t->log_vs_libc / points), exp(-t->log_vs_libc / points));
#ifdef UC_HAS_MEMMOVE
	printf("uc_memmove / libc memmove on the grid: worst %.3f, geometric mean %.3f, a speed-up of %.3fx\n",
	       t->worst_move, exp(t->log_move / points), exp(-t->log_move / points));
#endif
	printf("\n");
}

int grid(FILE *csv, unsigned char *arena, int samples, const struct target *compiled, struct figures *f)
{
	struct tally *t = calloc(1, sizeof *t);
	if (!t)
		return -1;
	print_header(csv, compiled);
	for (size_t l = 0; l < BENCH_GRID_LENGTHS; l++) {
		for (size_t d = 0; d < BENCH_GRID_DISTANCES; d++) {
			struct point_times p;
			time_point(arena, samples, compiled, bench_grid_lengths[l], bench_grid_distances[d], &p);
			print_point(csv, compiled, bench_grid_lengths[l], bench_grid_distances[d], &p);
			tally_point(t, f, bench_grid_lengths[l], bench_grid_distances[d], &p);
			progress("grid", l * BENCH_GRID_DISTANCES + d + 1, BENCH_GRID_LENGTHS * BENCH_GRID_DISTANCES);
		}
		printf("\n");
	}
	print_summary(t, compiled, f);
	free(t);
	return 0;
}

const struct uc_rule *baseline_rule(void)
{
	static struct uc_rule base = {.zero_mod = 4096, .n_bands = 1, .status = UC_RULE_BASELINE, .entry = "",
				      .source = "", .reason = ""};
	base.bands[0].hi = (uc_size_t)-1; /* every class forward: strategy code 0 */
	return &base;
}

void baseline_grid(unsigned char *arena, int samples, const struct uc_rule *installed, struct figures *f)
{
	size_t over = 0, twin_over = 0, at_l = 0, at_d = 0;
	rule_install_patched(baseline_rule());
	f->worst_base_vs_movsb = f->worst_base_twin = 0;
	for (size_t l = 0; l < BENCH_GRID_LENGTHS; l++)
		for (size_t d = 0; d < BENCH_GRID_DISTANCES; d++) {
			double uc = 1e300, movsb = 1e300, twin = 1e300;
			for (int round = 0; round < ROUNDS; round++) {
				uc = fmin(uc, time_copy(uc_memcpy, arena, bench_grid_lengths[l], bench_grid_distances[d], samples, 3000));
				movsb = fmin(movsb, time_copy(rep_movsb, arena, bench_grid_lengths[l], bench_grid_distances[d], samples, 3000));
				twin = fmin(twin, time_copy(strategy_routine(UC_STRATEGY_FORWARD), arena, bench_grid_lengths[l],
							    bench_grid_distances[d], samples, 3000));
			}
			double spread = fmax(twin / movsb, movsb / twin);
			if (uc / movsb > f->worst_base_vs_movsb)
				f->worst_base_vs_movsb = uc / movsb, at_l = bench_grid_lengths[l], at_d = bench_grid_distances[d];
			f->worst_base_twin = fmax(f->worst_base_twin, spread);
			over += uc / movsb > 1.03;
			twin_over += spread > 1.03;
			progress("baseline grid", l * BENCH_GRID_DISTANCES + d + 1, BENCH_GRID_LENGTHS * BENCH_GRID_DISTANCES);
		}
	rule_install_patched(installed);
	printf("baseline grid: uc_memcpy under the baseline table (what a core nobody measured runs) against one rep\n"
	       "  movsb at every grid point: worst %.3f (n = %zu, d = %zu), above 1.03 at %zu of %zu points; the\n"
	       "  same rep movsb from two addresses apart by up to %.3fx, by more than 3%% at %zu points\n\n",
	       f->worst_base_vs_movsb, at_l, at_d, over, BENCH_GRID_LENGTHS * BENCH_GRID_DISTANCES, f->worst_base_twin, twin_over);
}
