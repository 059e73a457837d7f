/* What a rule may say, written once for the generator, the probe and,
 * through db.strategies and db.align_dst_values, the templates. The schema's
 * CHECKs state the same sets for SQLite; the generator does not trust that
 * they ran. */
#ifndef UARCHGEN_RULE_LIMITS_H
#define UARCHGEN_RULE_LIMITS_H

/* The values a rule's align_dst may hold (0: no alignment head). */
#define ALIGN_DST_VALUES 0, 8, 16, 32, 64
#define ALIGN_DST_TEXT "0, 8, 16, 32, 64"

/* The instruction sets a strategy may need, as a flavor's isa names them
 * (table flavor): a flavor runs the strategies its isa allows. */
#define ISA_LEVELS(X) X(ISA_GPR, "gpr") X(ISA_AVX2, "avx2") X(ISA_AVX512, "avx512")
#define ISA_ENUM(id, name) id,
enum isa_level { ISA_LEVELS(ISA_ENUM) N_ISA_LEVELS };
#undef ISA_ENUM

/* The copy strategies a rule's table may choose, in the order of their
 * codes: X(ID, "name", min_n, max_n, isa, 'letter', fallback), max_n -1 for
 * no limit. A band may name a strategy only when every length in it lies in
 * [min_n, max_n], and only in a flavor whose isa allows the strategy's.
 * They are ordered by isa, so a flavor's strategies are the first codes.
 * Where the CPU or the OS has not enabled a strategy's isa, the rule runs
 * its fallback instead, or forward where the fallback cannot copy n bytes.
 * The letter stands for the strategy in the rule's log line.
 *  - forward: one rep movsb from the first byte. The baseline: the copy of
 *    every core that has no evidence, the one a measured table must beat.
 *  - forward_aligned: rep movsb of the head that aligns the destination to
 *    the rule's align_dst, then of the rest. The head is at most 63 bytes,
 *    so the copy needs n >= 64.
 *  - down: the general-register descending copy, 8 bytes a store, n >= 8.
 *  - small: every load before any store, overlapping head and tail moves
 *    in four general registers, so n <= 32.
 *  - avx2_forward, avx2_down: 32-byte ymm loads and stores, ascending or
 *    descending, the first and last 32 bytes loaded before any store and
 *    stored last, so n >= 32.
 *  - avx2_small: every load before any store, in up to eight vector
 *    registers (xmm to 32 bytes, ymm to 256) or, below 16 bytes, general
 *    ones; n <= 256.
 *  - avx2_nt: avx2_forward with streaming (non-temporal) stores between
 *    the head and the tail, then sfence: the copy does not read the
 *    destination's lines in or evict the caches' other lines for them, for
 *    copies larger than the caches hold; n >= 32.
 *  - avx512_forward, avx512_down: the same with 64-byte zmm moves, n >= 64. */
#define STRATEGIES(X)                                                                                              \
	X(STRATEGY_FORWARD, "forward", 0, -1, ISA_GPR, 'F', STRATEGY_FORWARD)                                     \
	X(STRATEGY_FORWARD_ALIGNED, "forward_aligned", 64, -1, ISA_GPR, 'A', STRATEGY_FORWARD)                    \
	X(STRATEGY_DOWN, "down", 8, -1, ISA_GPR, 'D', STRATEGY_DOWN)                                              \
	X(STRATEGY_SMALL, "small", 0, 32, ISA_GPR, 'S', STRATEGY_SMALL)                                           \
	X(STRATEGY_AVX2_FORWARD, "avx2_forward", 32, -1, ISA_AVX2, 'V', STRATEGY_FORWARD)                         \
	X(STRATEGY_AVX2_DOWN, "avx2_down", 32, -1, ISA_AVX2, 'W', STRATEGY_DOWN)                                  \
	X(STRATEGY_AVX2_SMALL, "avx2_small", 0, 256, ISA_AVX2, 'Q', STRATEGY_SMALL)                                \
	X(STRATEGY_AVX2_NT, "avx2_nt", 32, -1, ISA_AVX2, 'N', STRATEGY_FORWARD)                                   \
	X(STRATEGY_AVX512_FORWARD, "avx512_forward", 64, -1, ISA_AVX512, 'Z', STRATEGY_AVX2_FORWARD)              \
	X(STRATEGY_AVX512_DOWN, "avx512_down", 64, -1, ISA_AVX512, 'X', STRATEGY_AVX2_DOWN)

/* The names, for an error message: "forward, forward_aligned, ...". */
#define STRATEGY_LIST_ITEM(id, name, ...) ", " name
#define STRATEGY_LIST (STRATEGIES(STRATEGY_LIST_ITEM) + 2)

#define STRATEGY_ENUM(id, ...) id,
enum copy_strategy { STRATEGIES(STRATEGY_ENUM) N_COPY_STRATEGIES };
#undef STRATEGY_ENUM

#define BASELINE_STRATEGY STRATEGY_FORWARD

/* Distance classes, by d = (dst - src) mod 4096:
 *  zero: d mod zero_mod = 0: d = 0 alone (dst == src, or the same offset
 *    in another page) when zero_mod is 4096, every mutually aligned pair
 *    of buffers when it is 8..64 (ZERO_MOD_VALUES);
 *  above: dst 1..above_max bytes above the source;
 *  near: dst above_max+1..near_max bytes above it (none when near_max is
 *    above_max), where a core copies its own way again;
 *  below: dst 1..below_max bytes below the source (d >= 4096 - below_max);
 *  elsewhere: every other d.
 * A class bound is 0..2047, so above and below never meet. */
#define DISTANCE_CLASSES(X) X(CLASS_ZERO, "zero") X(CLASS_ABOVE, "above") X(CLASS_NEAR, "near") X(CLASS_BELOW, "below") X(CLASS_ELSEWHERE, "elsewhere")
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
 * a fixed number of band bounds. Bands below 256 bytes cost a call nothing
 * (their lengths index a byte table); past it each is one compare. Eight
 * were too few on a Zen 3 guest: the kernel table put 113..256 in one band,
 * so at 128 bytes, d = 96..4064 in steps of 32, it took rep movsb where the
 * descending copy was 1.31x faster; with twelve or more the worst regret
 * was 1.279, at a single 512 KiB point (evidence/zen3-2026-11-30-2f82ba,
 * derived again with each cap). */
#define MAX_BANDS 16

#endif
