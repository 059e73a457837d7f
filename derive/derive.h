/* Derives a core's decision table from its measurements. Pure: no timing,
 * no I/O, so it is tested on recorded tables. */
#ifndef DERIVE_DERIVE_H
#define DERIVE_DERIVE_H

#include "../common/rule_limits.h"
#include "../plan/table.h"
#include "timings.h"

#include <limits.h>

/* The derivation's version, which a rule's method names: raised whenever
 * the same archive would derive another rule. 2: a run of probe version 3
 * takes the default band cost, not its confounded slope (dispatch.h,
 * DISPATCH_TRUSTED_VERSION). 3: a band whose classes copy their own ways
 * is charged the test of the distance every call of its lengths runs
 * (fit.c, band). 4: the grid gate's repairs replayed, and a run that
 * timed no compiled tree keeps only its long cells (repair.h). uarchgen
 * rederive derives every recorded run again with the current one. */
#define DERIVE_VERSION 4

/* A difference smaller than this fraction is a tie even where the passes
 * agreed more closely: below it, timer placement and frequency moves
 * decide, not the copy. */
#define DERIVE_NOISE_FLOOR 0.03
/* The noise is the median spread across passes of the points that take at
 * least this many ticks. */
#define DERIVE_NOISE_MIN_TICKS 100

/* The probe measures the strategies that align (the catalogue's aligns)
 * with this alignment head. */
#define PROBE_ALIGN_DST 64

/* What a split of the lengths costs the calls it puts behind a compare.
 * The probe (version 3) measures band_ticks on its machine: the random-size
 * workload through tables of 1, 2, 4 and 8 bands that alternate their copy
 * (probe/dispatch_cost.c). A run of an older probe takes the default. */
/* A run of lengths lo..hi that no band edge may fall inside: a band that
 * started in lo + 1..hi did not pay for its compare on the probe's
 * workload (dispatch.h, the probe's band trials). */
struct length_range {
	unsigned int lo, hi;
};
#define DERIVE_UNSPLIT_MAX 8

struct derive_cost {
	/* Ticks per call that each band past the first costs a call as long
	 * as the band's first length or longer. */
	double band_ticks;
	/* How many times band_ticks is charged: 1 as measured; the probe's
	 * final candidates are derived at other multiples too, and 0 charges
	 * only BAND_PRICE, as the derivation did before it measured this. */
	double multiple;
	int measured; /* 0: band_ticks is DERIVE_BAND_TICKS_DEFAULT */
	/* How the fit weighs the lengths: each alike, or as often as the size
	 * profile calls it (fit_weights.c, length_weights). At the profile's
	 * weights a split costs the calls it puts behind a compare what the
	 * model charges a compare and a misprediction (derive/model.h), in
	 * ticks, not band_ticks. */
	enum length_weighting { LENGTHS_ALIKE, LENGTHS_PROFILE } weighting;
	double compare_ticks, mispredict_ticks;
	/* Nonzero: harm and ties are judged against the flavor's reference
	 * (timings_reference), the copy its baseline ships as, where it was
	 * timed at every point; else against BASELINE_STRATEGY. */
	int against_reference;
	int n_unsplit;
	struct length_range unsplit[DERIVE_UNSPLIT_MAX];
};

/* The default, for a run that did not measure it: a band's cost as the
 * probe's dispatch measurement gave it, in both flavors, on a measured
 * core (measured: see
 * docs/notebook/comment-figures-2026-12.md#the-default-band-cost). */
#define DERIVE_BAND_TICKS_DEFAULT 0.8

struct derived_rule {
	unsigned int above_max, below_max; /* class bounds, 0..CLASS_BOUND_MAX */
	unsigned int near_max;             /* above_max..CLASS_BOUND_MAX */
	int zero_mod;                      /* class zero: d mod zero_mod = 0; 4096: d = 0 alone */
	int align_dst;                     /* PROBE_ALIGN_DST when a band uses an aligning strategy, else 0 */
	int n_bands;                       /* 1..MAX_BANDS; bands[0].lo is 0 */
	struct band bands[MAX_BANDS];
	/* memmove's copy where the ranges overlap, for each way a copy must
	 * go (copy_table's stand_in: code + 1, 0 for none): set by
	 * overlap_stand_ins (overlap.h), after the table is chosen. */
	int stand_in[2];
	unsigned int stand_in_max[2]; /* the longest copy it takes; 0: any (copy_table's) */
	/* Over every measured point: the rule's choice against the best
	 * measured strategy there, and against the baseline. */
	double worst_regret, median_regret, worst_vs_baseline;
	double mean_regret; /* geometric mean */
	double p99_regret;  /* the 99th percentile */
	size_t points, over_5pct; /* points judged; of them, regret above 1.05 */
	unsigned int worst_length, worst_distance; /* where the worst regret is */
	double noise;                              /* the tie threshold used */
	struct derive_cost cost;                   /* what each split was charged */
	/* The derivation in a few sentences: room for every band of the
	 * longest table, each naming all five classes, and for every repair
	 * a gate may make (REPAIRS_MAX), each naming its cell. */
	char note[8192];
};

/* Derives t's rule, charging each split cost (NULL: the default). Nonzero,
 * with note saying why, when the table lacks what the derivation needs. */
int derive_rule(const struct timings *t, const struct derive_cost *cost, struct derived_rule *out);

/* Judges r's table on t: sets r's regret figures, keeps its bands. Nonzero,
 * with the note saying why, when t lacks a point r needs. */
int rule_regret(const struct timings *t, struct derived_rule *r);

/* The distance class of d = (dst - src) mod 4096 under r (plan_class). */
enum distance_class rule_class(const struct derived_rule *r, unsigned int d);

/* The strategy r picks for length n at distance d (plan_choice). */
int rule_choice(const struct derived_rule *r, unsigned int n, unsigned int d);
/* Whether class c holds any distance under r's bounds: zero and
 * elsewhere always; above, near and below where their bound is set. A
 * band's cell of a class that holds none copies nothing, and is not told. */
int rule_class_live(const struct derived_rule *r, int c);

/* Sets r's align_dst from its bands: PROBE_ALIGN_DST where a cell takes
 * a strategy that aligns, else 0. */
void rule_align_dst(struct derived_rule *r);

/* r's table as plan/ reads it. */
void rule_table(const struct derived_rule *r, struct copy_table *out);

#endif
