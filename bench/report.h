/* What make bench measures, gathered for its closing table: the figures
 * the choice-once targets are stated in, each a ratio of copies timed side
 * by side in one run. */
#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

#include "target.h"

#include <stddef.h>
#include <stdio.h>

/* Each copy's time is its minimum over this many rounds of every copy, so
 * that a slow spell of the machine hits all of them alike. */
#define ROUNDS 3

struct figures {
	/* The grid (grid.c): uc_memcpy under the installed rule. */
	double worst_vs_movsb;       /* over one rep movsb */
	size_t worst_vs_movsb_n, worst_vs_movsb_d;
	double worst_twin;           /* the same rep movsb from two addresses */
	double worst_vs_chosen;      /* over its chosen strategy's routine called alone */
	size_t worst_vs_chosen_n, worst_vs_chosen_d;
	double worst_vs_libc_small;  /* over the C library's memcpy, 64..256 bytes */
	double p90_vs_best[2];       /* over the best copy alone, 90th percentile: n < 64, n >= 64 */
	/* The baseline at every grid point (baseline_grid), whatever the rule. */
	double worst_base_vs_movsb, worst_base_twin;
	/* The random-size workload and its sorted control (bench.c). */
	double random_vs_movsb, random_vs_libc, sorted_vs_movsb, sorted_vs_libc;
};

/* qsort's order of doubles, ascending. */
int cmp_double(const void *a, const void *b);

/* Progress on stderr, where it is a terminal. */
void progress_on_tty(int on);
void progress(const char *what, size_t done, size_t total);

/* The grid: prints a row per length and distance, writes csv, fills f. */
int grid(FILE *csv, unsigned char *arena, int samples, const struct target *compiled, struct figures *f);

/* The baseline's rule: every copy forward, no evidence. */
struct uc_rule;
const struct uc_rule *baseline_rule(void);

/* The baseline, every copy one forward rep movsb through the unpatched
 * entries, against a bare rep movsb at each grid point, with the twin
 * pair's spread; installed is put back after. */
void baseline_grid(unsigned char *arena, int samples, const struct uc_rule *installed, struct figures *f);

/* The closing table: each target of the choice-once work this flavor and
 * this CPU's rule can show, against its figure here. */
void print_targets(const struct figures *f, const char *flavor, const char *routines, int measured);

#endif
