/* What a rule may say, written once for the generator, the probe and,
 * through db.strategies and db.align_dst_values, the templates. The schema's
 * CHECKs state the same sets for SQLite; the generator does not trust that
 * they ran. */
#ifndef UARCHGEN_RULE_LIMITS_H
#define UARCHGEN_RULE_LIMITS_H

/* The values a rule's align_dst may hold (0: no alignment head). */
#define ALIGN_DST_VALUES 0, 8, 16, 32, 64
#define ALIGN_DST_TEXT "0, 8, 16, 32, 64"

/* The copy strategies a rule's table may choose, in the order of their
 * codes: X(ID, "name", min_n, max_n), max_n -1 for no limit. A band may name
 * a strategy only when every length in it lies in [min_n, max_n].
 *  - forward: one rep movsb from the first byte. The baseline: the copy of
 *    every core that has no evidence, the one a measured table must beat.
 *  - forward_aligned: rep movsb of the head that aligns the destination to
 *    the rule's align_dst, then of the rest. The head is at most 63 bytes,
 *    so the copy needs n >= 64.
 *  - down: the general-register descending copy, 8 bytes a store, n >= 8.
 *  - small: every load before any store, overlapping head and tail moves
 *    in four general registers, so n <= 32. */
#define STRATEGIES(X)                                                                                              \
	X(STRATEGY_FORWARD, "forward", 0, -1)                                                                      \
	X(STRATEGY_FORWARD_ALIGNED, "forward_aligned", 64, -1)                                                     \
	X(STRATEGY_DOWN, "down", 8, -1)                                                                            \
	X(STRATEGY_SMALL, "small", 0, 32)

#define STRATEGY_ENUM(id, name, min_n, max_n) id,
enum copy_strategy { STRATEGIES(STRATEGY_ENUM) N_COPY_STRATEGIES };
#undef STRATEGY_ENUM

#define BASELINE_STRATEGY STRATEGY_FORWARD

/* Distance classes, by d = (dst - src) mod 4096:
 *  zero: d mod zero_mod = 0: d = 0 alone (dst == src, or the same offset
 *    in another page) when zero_mod is 4096, every mutually aligned pair
 *    of buffers when it is 8..64 (ZERO_MOD_VALUES);
 *  above: dst 1..above_max bytes above the source;
 *  below: dst 1..below_max bytes below the source (d >= 4096 - below_max);
 *  elsewhere: every other d.
 * A class bound is 0..2047, so above and below never meet. */
#define DISTANCE_CLASSES(X) X(CLASS_ZERO, "zero") X(CLASS_ABOVE, "above") X(CLASS_BELOW, "below") X(CLASS_ELSEWHERE, "elsewhere")
#define CLASS_ENUM(id, name) id,
enum distance_class { DISTANCE_CLASSES(CLASS_ENUM) N_DISTANCE_CLASSES };
#undef CLASS_ENUM
#define CLASS_BOUND_MAX 2047
#define ZERO_MOD_VALUES 4096, 64, 32, 16, 8
#define ZERO_MOD_TEXT "8, 16, 32, 64, 4096"

/* A length band of a rule's table: lengths lo..hi (hi BAND_UNBOUNDED for
 * the last band) and the strategy code of each distance class. */
#define BAND_UNBOUNDED 0xffffffffu
struct band {
	unsigned int lo, hi;
	int strategy[N_DISTANCE_CLASSES];
};

/* A table has at most this many length bands: the generated dispatch reads
 * a fixed number of band bounds. */
#define MAX_BANDS 8

#endif
