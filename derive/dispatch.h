/* What the dispatch costs, as the probe measures it (from version 3): the
 * random-size workload (glibc's bench-memcpy-random distribution,
 * common/workload.c) and its sorted control, in ticks per call, through
 * tables of 1 to 8 bands; what the search checked (version 26,
 * derive/search.h), or before it the candidates and the trials (versions
 * 3 to 25), and the grid gate. The archive records them (archive.h); the
 * import derives the rule the probe kept from their verdicts. */
#ifndef DERIVE_DISPATCH_H
#define DERIVE_DISPATCH_H

#include "derive.h"

/* Tables of 1, 2, 4 and 8 bands that alternate their copy. */
#define DISPATCH_TABLES 4
extern const int dispatch_bands[DISPATCH_TABLES];

/* The first probe version whose dispatch timings the derivation uses.
 * Version 3 timed, through the table dispatch, tables whose bands
 * alternate their copy: the slope then measures the strategy mix as well
 * as the branches, and where one copy is much faster than the other it
 * can read no cost at all (measured: see
 * docs/notebook/comment-figures-2026-12.md#bands-that-alternate-their-copy),
 * and it timed its candidates through the table interpreter, not as the
 * code gen writes. Its runs derive as an older probe's: at the default
 * cost, once. */
#define DISPATCH_TRUSTED_VERSION 4

/* The multiples of the measured band cost each candidate is derived at. */
#define DISPATCH_CANDIDATES 3
extern const double candidate_multiples[DISPATCH_CANDIDATES];
/* chosen, where the probe kept the baseline. */
#define CHOSE_BASELINE (-1.0)

struct workload_ticks {
	double random, sorted; /* ticks per call */
};

/* A band trial (probe version 7): a split of the kept table (or of the
 * one the shaped trial starts from, below) that the workload's calls
 * reach, tried away. The table derived again with no band edge inside
 * range (derive.h, struct length_range) and the table with it, each
 * compiled as gen writes it, timed in turns with every copy forward (from
 * probe version 11; with each other before): the median ticks a call of
 * each. merged: the rule keeps the range whole (from version 19, where
 * the split was not faster beyond the noise on random sizes). */
#define DISPATCH_TRIALS_MAX DERIVE_UNSPLIT_MAX
/* The rounds a trial's table is timed in, in turns with every copy forward. */
#define DISPATCH_PAIRED_ROUNDS 61
struct band_trial {
	struct length_range range;
	struct workload_ticks with, without;
	int merged;
};

/* The small trial (probe version 8): the kept table (or the shaped
 * trial's, below) after the band trials, and the same table with every
 * cell of STRATEGY_TRIAL_FROM copied by STRATEGY_TRIAL_TO
 * (common/strategies.h), each compiled as gen writes it, timed in turns
 * with every copy forward (from probe version 11; with each other, and the
 * table with the substitute with every copy forward, before): the median
 * ticks a call of each, and the baseline's on the sorted control. kept:
 * the substitute's table beat the table without it on random sizes beyond
 * the noise, and was no slower than the baseline beyond the noise on the
 * sorted control. */
struct small_trial {
	int tried; /* 0: no table to try (the baseline, not shaped), or no cell to substitute */
	struct workload_ticks with, without;
	double baseline_sorted;
	int kept;
};

/* The shaped trial (probe version 9): where every candidate lost to every
 * copy forward, the band trials and the small trial run on the candidate
 * fastest on random sizes (from, its multiple), and the table they shape,
 * compiled as gen writes it, is timed in turns with every copy forward as
 * it ships: the median ticks a call of each. kept: it beat every copy
 * forward as a candidate must, and the rule is that table. A candidate
 * that loses may still hold the table that wins: the trials can shape it
 * into one faster than every copy forward (measured: see
 * docs/notebook/measurements-2026-12.md#the-shaped-trial). */
struct shaped_trial {
	int started; /* 0: not run (a candidate was kept; a run before version 9) */
	double from;
	struct workload_ticks shaped, baseline;
	int kept;
};

/* The classes trial (probe version 15), in the kernel flavor, where every
 * candidate and the shaped table lost to every copy forward: the table the
 * trials made (derive_trialled) with every copy forward but in the classes
 * above, near and below (classes_trial_table), compiled as gen writes it
 * and timed in turns with every copy forward as it ships: the median ticks
 * a call of each. kept: no slower than every copy forward beyond the noise
 * on random sizes and on the sorted control. Its gain lies where the
 * workload rarely goes, at the few distances where rep movsb stalls
 * (measured: see docs/notebook/measurements-2026-12.md#the-classes-trial),
 * so a tie on the workload keeps it, since each of its cells beat every
 * copy forward beyond the noise where it differs. In the user flavor
 * every copy forward is the C library's memmove, which a table's
 * elsewhere copy is not: no trial runs there. */
struct classes_trial {
	int tried; /* 0: not run (a table kept, the user flavor, or no class copies its own way) */
	struct workload_ticks table, baseline;
	int kept;
};

/* The grid gate, after the search (or the trials), where the run keeps a
 * table: that table, compiled, against every copy forward as it ships at
 * each point of make bench's grid (common/bench_grid.h), the two timed in
 * turns, each point the median of GRID_GATE_ROUNDS rounds' ratios, a point
 * that loses (grid_gate_loses) repaired (derive/repair.h) and timed again.
 * worst: the largest ratio, at length and distance, of the table as
 * repaired. refused: a point still loses after every repair, by the rounds
 * of its three timings (grid_gate_loses), so that every copy forward stays:
 * a table never loses to what the caller already has beyond the noise on
 * the grid (on the workload the search's checks see to it). */
#define GRID_GATE_ROUNDS 15
/* The most CPUs the gate times each point on (probe/cpus.h): every CPU
 * the probe may run on, up to this many. */
#define GRID_GATE_CPUS 4
struct grid_gate {
	int tried;
	double worst;
	unsigned int length, distance;
	int refused;
};

/* A repair the grid gate made (derive/repair.h): at length, distance the
 * table lost ratio times every copy forward's time; its cell there copied
 * by from, and its lengths lo..hi copy by to after. A band's five classes
 * are five cells, and a cell may try each copy its measurements rank
 * before it takes the reference: room for that in a few bands (measured:
 * see docs/notebook/probe-fidelity-2026-12.md#five-make-probe-runs-in-a-row-zen-5-guest-version-31). */
#define REPAIRS_MAX 32
struct grid_repair {
	unsigned int length, distance, lo, hi;
	double ratio;
	int from, to;
};

/* The search (probe version 26, derive/search.h): the most tables it
 * ranks, one fitted at each of candidate_multiples, one to the size
 * profile (version 29), and the first's stall classes alone; and its
 * checks, each a ranked table (or the kept one's branch-light table, flat),
 * compiled, and the baseline as it ships, timed in turns on both
 * streams. */
#define SEARCH_FITS (DISPATCH_CANDIDATES + 1)
#define SEARCH_TABLES (SEARCH_FITS + 1)
#define SEARCH_CHECKS_MAX (SEARCH_TABLES + 1)
enum check_verdict { CHECK_LOST, CHECK_PASSED, CHECK_KEPT };
struct search_check {
	int rank, flat, bands;
	struct workload_ticks table, baseline;
	enum check_verdict verdict;
};

struct dispatch_run {
	int measured; /* 0: a run of probe version 1 or 2, which has none of this */
	struct workload_ticks tables[DISPATCH_TABLES];
	/* Each candidate derived at candidate_multiples[i], and the baseline:
	 * every copy forward, through the same dispatch. */
	struct workload_ticks candidates[DISPATCH_CANDIDATES], baseline;
	double chosen; /* a multiple of candidate_multiples, or CHOSE_BASELINE */
	int n_trials; /* version 7: the band trials, in the order tried */
	struct band_trial trials[DISPATCH_TRIALS_MAX];
	struct small_trial small; /* version 8 */
	struct shaped_trial shaped; /* version 9 */
	struct classes_trial classes; /* version 15 */
	struct grid_gate gate;      /* version 12 */
	/* Where the gate repairs (an archive that records repairs): each
	 * repair in the order made, and the gate's verdict is the repaired
	 * table's; refused only where repair left a loss. */
	int records_repairs;
	int n_repairs;
	struct grid_repair repairs[REPAIRS_MAX];
	/* A run whose probe timed no compiled tree against the grid (an
	 * archive before the gate): only its long cells are kept
	 * (unchecked_keep_long). */
	int unchecked;
	/* Version 26: the search replaces the candidates and the trials. */
	int searched;
	/* Version 29: the search fits a table to the size profile's weights
	 * too (search_rank), so its checks' ranks count that table; and
	 * every fit judges harm and ties against the flavor's reference
	 * (derive_cost, against_reference). */
	int profile_fit, against_reference;
	int n_checks;
	struct search_check checks[SEARCH_CHECKS_MAX];
};

/* The index of d's kept check of the search, or -1 where none was kept. */
static inline int search_kept(const struct dispatch_run *d)
{
	for (int i = 0; i < d->n_checks; i++)
		if (d->checks[i].verdict == CHECK_KEPT)
			return i;
	return -1;
}

/* The archive's lines of d, in this order (each number of ticks with two
 * decimals):
 *   dispatch BANDS RANDOM SORTED        one per table of dispatch_bands
 *   candidate MULTIPLE RANDOM SORTED    one per candidate_multiples
 *   baseline RANDOM SORTED
 *   chosen MULTIPLE                     or "chosen baseline"
 * the last three kinds only before the search (probe version 26), and
 * only with candidates set. */
#define DISPATCH_LINES (DISPATCH_TABLES + DISPATCH_CANDIDATES + 2)
struct buf;
void dispatch_text(struct buf *b, const struct dispatch_run *d, int candidates);
/* Reads line k (0..DISPATCH_LINES-1) into d. Nonzero with why set when it
 * is not that line, well formed; d->measured is set after the last. */
int dispatch_parse(const char *line, int k, struct dispatch_run *d, char *why, size_t why_size);

/* Ticks a call that each band past the first costs: the slope, over the
 * band counts, of the random stream's time less the sorted control's.
 * The calls and the copies they get are the same in both orders; only the
 * branches that the order of sizes defeats differ. 0 where it falls. */
double dispatch_band_ticks(const struct dispatch_run *d);
/* Ticks a call that each band past the first costs where every branch
 * predicts: the slope of the sorted control's time over the band counts,
 * 0 where it falls. A call of one length over and over, as the grid gate
 * times a point, runs its tree so. */
double dispatch_predicted_band_ticks(const struct dispatch_run *d);

/* The cost the rule is derived at: the measured one at the chosen
 * multiple, with every range a band trial merged kept whole; or the
 * default at multiple 1 where d measured nothing. */
struct derive_cost dispatch_cost(const struct dispatch_run *d);

/* A line's field: a positive, finite number of ticks, then one
 * space; the rest of the line after it, or NULL where there is none. */
const char *ticks_then_space(const char *s, double *v);

/* The multiple the trials start from: the kept candidate's, or, where
 * the baseline was kept, the shaped trial's (d->shaped); CHOSE_BASELINE
 * where there is neither: no trial runs. */
double dispatch_start(const struct dispatch_run *d);

/* The baseline's table: one band, every copy forward; no figures. */
void derived_baseline(struct derived_rule *r);

#endif
