/* The grid of make bench: at each length and distance, uc_memcpy under the
 * installed rule, each strategy's routine alone, one rep movsb and the C
 * library's copies, in rounds. */
#include "copy_rule.h"
#include "../common/text_poke.h"
#include "report.h"
#include "routines.h"

#include <math.h>
#include <stdio.h>

/* 8 MiB, the probe's longest length: past the caches, where streaming
 * stores may win. */
static const size_t lengths[] = {8, 16, 32, 64, 128, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 8388608};
/* The probe's sparse distances (probe/measure.c, which says why 2061). */
static const unsigned int distances[] = {0, 1, 16, 31, 32, 33, 63, 64, 65, 2061, 4064, 4088, 4095};
#define N_LENGTHS (sizeof lengths / sizeof *lengths)
#define N_DISTANCES (sizeof distances / sizeof *distances)

int grid(FILE *csv, unsigned char *arena, int samples, const struct target *compiled, struct figures *f)
{
	double worst_vs_movsb = 0, worst_vs_libc = 0, log_vs_libc = 0, worst_compiled = 0;
	size_t compiled_over = 0, at_compiled_l = 0, at_compiled_d = 0;
#ifdef UC_HAS_MEMMOVE
	double log_move = 0, worst_move = 0;
#endif
	/* uc_copy_forward and this file's rep_movsb run the same instructions
	 * (one rep movsb) from two addresses: their ratio, the twin line, is
	 * the floor under the /rep movsb column, what placement alone costs. */
	double worst_twin = 0;
	size_t twin_over = 0, uc_over = 0, at_twin_l = 0, at_twin_d = 0;
	size_t at_l = 0, at_d = 0, at_libc_l = 0, at_libc_d = 0, points = 0;
	fprintf(csv, "n,d,choice,uc_memcpy,best,best_strategy,regret,vs_rep_movsb,libc_vs_rep_movsb,vs_libc,"
		     "memmove_vs_libc,compiled_vs_rep_movsb\n");
	printf("grid: uc_memcpy under the installed table (ticks per call; ratios lower is faster)\n\n");
	printf("%8s %5s %-16s %10s %10s %-16s %7s %10s %10s %9s", "n", "d", "choice", "uc_memcpy", "best", "best is",
	       "regret", "/rep movsb", "libc/movsb", "/libc");
#ifdef UC_HAS_MEMMOVE
	printf(" %13s", "move/libc mv");
#endif
	if (compiled)
		printf(" %11s", "uct/movsb");
	printf("\n");
	for (size_t l = 0; l < N_LENGTHS; l++) {
		for (size_t d = 0; d < N_DISTANCES; d++) {
			size_t n = lengths[l];
			int choice = uc_copy_strategy(arena + 8192 + distances[d], arena + 8192, n);
			/* Rounds over every copy, each keeping its minimum, so that a
			 * slow spell of the machine hits all of them alike. */
			double uc = 1e300, movsb = 1e300, libc = 1e300, move = 1e300, libc_mv = 1e300, uct = 1e300,
			       strat[UC_N_STRATEGIES];
			for (int s = 0; s < UC_N_STRATEGIES; s++)
				strat[s] = 1e300;
			for (int round = 0; round < ROUNDS; round++) {
				uc = fmin(uc, time_copy(uc_memcpy, arena, n, distances[d], samples, 3000));
				movsb = fmin(movsb, time_copy(rep_movsb, arena, n, distances[d], samples, 3000));
				if (compiled)
					uct = fmin(uct, time_copy(compiled->memcpy, arena, n, distances[d], samples, 3000));
				libc = fmin(libc, time_copy(libc_copy, arena, n, distances[d], samples, 3000));
#ifdef UC_HAS_MEMMOVE
				move = fmin(move, time_copy(uc_memmove, arena, n, distances[d], samples, 3000));
				libc_mv = fmin(libc_mv, time_copy(libc_move, arena, n, distances[d], samples, 3000));
#endif
				for (int s = 0; s < UC_N_STRATEGIES; s++)
					if (strategy_timed(s, n))
						strat[s] = fmin(strat[s], time_copy(strategy_routine(s), arena, n,
										    distances[d], samples, 3000));
			}
			double best = 1e300;
			int best_s = 0;
			for (int s = 0; s < UC_N_STRATEGIES; s++)
				if (strat[s] < best)
					best = strat[s], best_s = s;
			if (uc < best) /* uc_memcpy is a strategy too: the best measured */
				best = uc, best_s = choice;
			printf("%8zu %5u %-16s %10.1f %10.1f %-16s %7.3f %10.3f %10.3f %9.3f", n, distances[d],
			       strategy_label(choice), uc, best, strategy_label(best_s), uc / best, uc / movsb, libc / movsb,
			       uc / libc);
#ifdef UC_HAS_MEMMOVE
			printf(" %13.3f", move / libc_mv);
			log_move += log(move / libc_mv);
			worst_move = fmax(worst_move, move / libc_mv);
#endif
			if (compiled) {
				printf(" %11.3f", uct / movsb);
				compiled_over += uct / movsb > 1.03;
				if (uct / movsb > worst_compiled)
					worst_compiled = uct / movsb, at_compiled_l = n, at_compiled_d = distances[d];
			}
			printf("\n");
			fprintf(csv, "%zu,%u,%s,%.2f,%.2f,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", n, distances[d],
				strategy_label(choice), uc, best, strategy_label(best_s), uc / best, uc / movsb, libc / movsb,
				uc / libc, move < 1e300 ? move / libc_mv : 0, compiled ? uct / movsb : 0);
			if (uc / movsb > worst_vs_movsb)
				worst_vs_movsb = uc / movsb, at_l = n, at_d = distances[d];
			/* The entry's jump and tree over the body it reaches. */
			if (strategy_timed(choice, n) && uc / strat[choice] > f->worst_vs_chosen)
				f->worst_vs_chosen = uc / strat[choice], f->worst_vs_chosen_n = n,
				f->worst_vs_chosen_d = distances[d];
			if (n >= 64 && n <= 256 && uc / libc > f->worst_vs_libc_small)
				f->worst_vs_libc_small = uc / libc;
			uc_over += uc / movsb > 1.03;
			double twin = fmax(strat[UC_STRATEGY_FORWARD] / movsb, movsb / strat[UC_STRATEGY_FORWARD]);
			twin_over += twin > 1.03;
			if (twin > worst_twin)
				worst_twin = twin, at_twin_l = n, at_twin_d = distances[d];
			if (uc / libc > worst_vs_libc)
				worst_vs_libc = uc / libc, at_libc_l = n, at_libc_d = distances[d];
			log_vs_libc += log(uc / libc);
			points++;
			progress("grid", l * N_DISTANCES + d + 1, N_LENGTHS * N_DISTANCES);
		}
		printf("\n");
	}
	f->worst_vs_movsb = worst_vs_movsb, f->worst_vs_movsb_n = at_l, f->worst_vs_movsb_d = at_d;
	f->worst_twin = worst_twin;
	printf("worst uc_memcpy / rep movsb on the grid: %.3f (n = %zu, d = %zu); above 1.03 at %zu of %zu points\n",
	       worst_vs_movsb, at_l, at_d, uc_over, points);
	if (compiled)
		printf("worst uct_memcpy (the table compiled for %s) / rep movsb on the grid: %.3f (n = %zu, d = %zu); "
		       "above 1.03 at %zu of %zu points\n",
		       compiled->entry, worst_compiled, at_compiled_l, at_compiled_d, compiled_over, points);
	printf("worst uc_memcpy / its chosen strategy called alone on the grid: %.3f (n = %zu, d = %zu)\n",
	       f->worst_vs_chosen, f->worst_vs_chosen_n, f->worst_vs_chosen_d);
	printf("the same rep movsb from two addresses (uc_copy_forward against rep movsb): apart by up to %.3fx "
	       "(n = %zu, d = %zu), by more than 3%% at %zu of %zu points\n",
	       worst_twin, at_twin_l, at_twin_d, twin_over, points);
	printf("worst uc_memcpy / libc memcpy on the grid: %.3f (n = %zu, d = %zu); geometric mean %.3f, a speed-up "
	       "of %.3fx\n",
	       worst_vs_libc, at_libc_l, at_libc_d, exp(log_vs_libc / (double)points), exp(-log_vs_libc / (double)points));
#ifdef UC_HAS_MEMMOVE
	printf("uc_memmove / libc memmove on the grid: worst %.3f, geometric mean %.3f, a speed-up of %.3fx\n",
	       worst_move, exp(log_move / (double)points), exp(-log_move / (double)points));
#endif
	printf("\n");
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
	for (size_t l = 0; l < N_LENGTHS; l++)
		for (size_t d = 0; d < N_DISTANCES; d++) {
			double uc = 1e300, movsb = 1e300, twin = 1e300;
			for (int round = 0; round < ROUNDS; round++) {
				uc = fmin(uc, time_copy(uc_memcpy, arena, lengths[l], distances[d], samples, 3000));
				movsb = fmin(movsb, time_copy(rep_movsb, arena, lengths[l], distances[d], samples, 3000));
				twin = fmin(twin, time_copy(strategy_routine(UC_STRATEGY_FORWARD), arena, lengths[l],
							    distances[d], samples, 3000));
			}
			double spread = fmax(twin / movsb, movsb / twin);
			if (uc / movsb > f->worst_base_vs_movsb)
				f->worst_base_vs_movsb = uc / movsb, at_l = lengths[l], at_d = distances[d];
			f->worst_base_twin = fmax(f->worst_base_twin, spread);
			over += uc / movsb > 1.03;
			twin_over += spread > 1.03;
			progress("baseline grid", l * N_DISTANCES + d + 1, N_LENGTHS * N_DISTANCES);
		}
	rule_install_patched(installed);
	printf("baseline grid: uc_memcpy under the baseline table (what a core nobody measured runs) against one rep\n"
	       "  movsb at every grid point: worst %.3f (n = %zu, d = %zu), above 1.03 at %zu of %zu points; the\n"
	       "  same rep movsb from two addresses apart by up to %.3fx, by more than 3%% at %zu points\n\n",
	       f->worst_base_vs_movsb, at_l, at_d, over, N_LENGTHS * N_DISTANCES, f->worst_base_twin, twin_over);
}
