/* The catalogue of copy strategies: every fact about a strategy, stated
 * once. The generator hands it to the templates as db.strategies, the
 * probe times what it lists, and the routine, the tests and the legends of
 * out/ are generated from it. docs/adding-a-strategy.md says what else a
 * new strategy needs: its body, templates/flavor/x86_64/copy/bodies/<name>.tpi. */
#ifndef UARCHGEN_STRATEGIES_H
#define UARCHGEN_STRATEGIES_H

/* The instruction sets a strategy may need, as a flavor's isa names them
 * (table flavor): a flavor runs the strategies its isa allows. */
#define ISA_LEVELS(X) X(ISA_GPR, "gpr") X(ISA_AVX2, "avx2") X(ISA_AVX512, "avx512")
#define ISA_ENUM(id, name) id,
enum isa_level { ISA_LEVELS(ISA_ENUM) N_ISA_LEVELS };
#undef ISA_ENUM

/* The direction a strategy copies in, which memmove needs: an overlap with
 * the destination above the source must be copied highest first, one with
 * it below lowest first. DIR_ANY: every load comes before any store, so
 * either overlap copies correctly. */
#define DIRECTIONS(X) X(DIR_UP, "up") X(DIR_DOWN, "down") X(DIR_ANY, "any")
#define DIRECTION_ENUM(id, name) id,
enum copy_direction { DIRECTIONS(DIRECTION_ENUM) N_DIRECTIONS };
#undef DIRECTION_ENUM

/* One row a strategy:
 *   X(ID, "name", min_n, max_n, isa, 'letter', fallback, code, direction,
 *     streams, aligns, defers, "clobbers", "what")
 *  - min_n, max_n: the lengths it copies (max_n -1: no limit). A band may
 *    name a strategy only when every length in it lies in [min_n, max_n].
 *  - isa: the instructions it needs; a flavor runs it only when the
 *    flavor's isa allows them.
 *  - letter: it in the rule's log line.
 *  - fallback: what the installed rule runs instead where the CPU or the OS
 *    has not enabled its isa (forward where the fallback cannot copy n).
 *  - code: its number in tables and in UC_STRATEGY_*. Stable: a code is
 *    never renumbered or reused, the rows are in code order and a new
 *    strategy takes the next code, last, whatever its isa.
 *  - direction: DIR_UP, DIR_DOWN or DIR_ANY (above).
 *  - streams: 1 where its stores are non-temporal (then sfence).
 *  - aligns: 1 where it reads the rule's align_dst.
 *  - defers: 1 where it runs the C library's memmove: only a flavor with a
 *    memmove of its own, the drop-in library's, which a program loads
 *    above its C library, has one to run (strategy_offered).
 *  - clobbers: the registers its body writes besides the arguments'
 *    rdi, rsi and rdx; a routine that returns dst in rax restores rax
 *    after a body that names it.
 *  - what: what it does, in a few words, for the routine's documentation.
 * The strategies, and why each exists:
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
 *  - avx512_forward, avx512_down: the same with 64-byte zmm moves, n >= 64.
 *  - small_flat: small without its branch between 8..15 and 16..32 bytes
 *    (four loads at offsets that overlap to cover n), n <= 32: that branch
 *    mispredicts on random sizes. The probe's small trial chooses it.
 *  - avx512_small: n <= 32 bytes as one ymm load and one store under a
 *    mask of n bits (AVX-512BW and VL, the mask by BMI2's bzhi): no branch
 *    at any length, and the masked-off bytes are neither read nor written,
 *    so nothing past n faults.
 *  - avx512_medium: every load before any store, 64 bytes a move from 65
 *    bytes (two ymm below), for n in 33..1024: to 512 as glibc's AVX-512
 *    memmove moves these lengths (sysdeps/x86_64/multiarch/
 *    memmove-vec-unaligned-erms.S), then in sixteen registers where that
 *    memmove loops; avx2_small moves half as much a move.
 *  - avx512_masked: avx512_small's one masked move in a zmm register, for
 *    n <= 63: every length below the 64 bytes from which the C library's
 *    AVX-512 memmove copies with two unmasked moves after two compares,
 *    behind one compare and a jump, as that memmove reaches its shorter
 *    lengths, but with no compare after it (the C library's takes up to
 *    four more, which mispredict on random sizes).
 *  - avx512_masked_wide: avx512_masked's masked move in four zmm
 *    registers under four masks, for n <= 256: no compare on the length
 *    where avx512_medium and the C library's AVX-512 memmove compare it
 *    two or three times, which mispredict on random sizes; masks cost
 *    instructions that compares do not, so the probe decides.
 *  - avx512_prefetch: avx512_forward with a prefetch of the source 512
 *    bytes ahead of each block of its steps of four, as AMD's library
 *    copies lengths below half the L1 (aocl-libmem's Zen 5 memcpy); for
 *    64..32768 bytes, a bound past half the largest L1D of the cores
 *    uarch.db holds, so that the probe times it wherever that library
 *    would prefetch and no further: whether it pays is the probe's to
 *    measure.
 *  - libc: a jump to the C library's memmove, through the pointer
 *    <prefix>libc_memmove, which the drop-in library's constructor sets
 *    (preload/uarchcopy.c) and which otherwise holds the flavor's own
 *    baseline memmove, one rep movsb (highest first where the ranges
 *    overlap that way). The C library's memmove is the baseline a user
 *    table is judged against (probe/flavor.c): where no copy of ours beats
 *    it at a point, the cell takes it, and the table keeps its wins
 *    elsewhere (docs/derivation.md, the repair): without it, one point
 *    where the C library beats every copy of ours sends the whole table
 *    back to it (docs/notebook/derivation-2026-11.md, "The measurements
 *    behind the rules"). */
#define STRATEGIES(X) \
	X(STRATEGY_FORWARD, "forward", 0, -1, ISA_GPR, 'F', STRATEGY_FORWARD, 0, DIR_UP, 0, 0, 0, "rcx", \
	  "one rep movsb (the baseline)") \
	X(STRATEGY_FORWARD_ALIGNED, "forward_aligned", 64, -1, ISA_GPR, 'A', STRATEGY_FORWARD, 1, DIR_UP, 0, 1, 0, "rcx r8", \
	  "a rep movsb head to the rule's align_dst, then the rest") \
	X(STRATEGY_DOWN, "down", 8, -1, ISA_GPR, 'D', STRATEGY_DOWN, 2, DIR_DOWN, 0, 0, 0, "rcx r8", \
	  "the descending copy, 8 bytes a store") \
	X(STRATEGY_SMALL, "small", 0, 32, ISA_GPR, 'S', STRATEGY_SMALL, 3, DIR_ANY, 0, 0, 0, "rax rcx r8", \
	  "every load before any store (any overlap)") \
	X(STRATEGY_AVX2_FORWARD, "avx2_forward", 32, -1, ISA_AVX2, 'V', STRATEGY_FORWARD, 4, DIR_UP, 0, 0, 0, "rcx r8 r9 ymm0-5", \
	  "ymm moves, ascending") \
	X(STRATEGY_AVX2_DOWN, "avx2_down", 32, -1, ISA_AVX2, 'W', STRATEGY_DOWN, 5, DIR_DOWN, 0, 0, 0, "rcx r8 ymm0-5", \
	  "ymm moves, highest first") \
	X(STRATEGY_AVX2_SMALL, "avx2_small", 0, 256, ISA_AVX2, 'Q', STRATEGY_SMALL, 6, DIR_ANY, 0, 0, 0, "rax rcx r8 ymm0-7", \
	  "every load before any store, in xmm and ymm registers (any overlap)") \
	X(STRATEGY_AVX2_NT, "avx2_nt", 32, -1, ISA_AVX2, 'N', STRATEGY_FORWARD, 7, DIR_UP, 1, 0, 0, "rcx r8 r9 ymm0-5", \
	  "ymm moves, ascending, streaming stores, then sfence") \
	X(STRATEGY_AVX512_FORWARD, "avx512_forward", 64, -1, ISA_AVX512, 'Z', STRATEGY_AVX2_FORWARD, 8, DIR_UP, 0, 0, 0, "rcx r8 r9 zmm0-5", \
	  "zmm moves, ascending") \
	X(STRATEGY_AVX512_DOWN, "avx512_down", 64, -1, ISA_AVX512, 'X', STRATEGY_AVX2_DOWN, 9, DIR_DOWN, 0, 0, 0, "rcx r8 zmm0-5", \
	  "zmm moves, highest first") \
	X(STRATEGY_SMALL_FLAT, "small_flat", 0, 32, ISA_GPR, 'B', STRATEGY_SMALL_FLAT, 10, DIR_ANY, 0, 0, 0, "rax rcx r8", \
	  "every load before any store, no branch on the length from 8 bytes (any overlap)") \
	X(STRATEGY_AVX512_SMALL, "avx512_small", 0, 32, ISA_AVX512, 'M', STRATEGY_SMALL_FLAT, 11, DIR_ANY, 0, 0, 0, \
	  "rcx k1 ymm0", "one load and one store of the first n bytes under a mask, no branch (any overlap)") \
	X(STRATEGY_AVX512_MEDIUM, "avx512_medium", 33, 1024, ISA_AVX512, 'E', STRATEGY_AVX2_SMALL, 12, DIR_ANY, 0, 0, 0, \
	  "zmm0-15", "every load before any store, in zmm registers (any overlap)") \
	X(STRATEGY_AVX512_MASKED, "avx512_masked", 0, 63, ISA_AVX512, 'K', STRATEGY_AVX2_SMALL, 13, DIR_ANY, 0, 0, 0, \
	  "rcx k1 zmm0", "one zmm load and one store of the first n bytes under a mask, no branch (any overlap)") \
	X(STRATEGY_LIBC, "libc", 0, -1, ISA_GPR, 'L', STRATEGY_LIBC, 14, DIR_ANY, 0, 0, 1, "rax rcx r8 r9 r10 r11", \
	  "the C library's memmove, a jump through a pointer (any overlap)") \
	X(STRATEGY_AVX512_MASKED_WIDE, "avx512_masked_wide", 0, 256, ISA_AVX512, 'H', STRATEGY_AVX2_SMALL, 15, DIR_ANY, 0, 0, \
	  0, "rax rcx r8 r9 k1-4 zmm0-3", \
	  "four zmm loads and four stores of the first n bytes under masks, no branch (any overlap)") \
	X(STRATEGY_AVX512_PREFETCH, "avx512_prefetch", 64, 32768, ISA_AVX512, 'G', STRATEGY_AVX2_FORWARD, 16, DIR_UP, 0, 0, \
	  0, "rcx r8 r9 zmm0-5", "zmm moves, ascending, the source prefetched ahead of each step")

/* The small trial (derive/dispatch.h): in a kept table, every cell of
 * STRATEGY_TRIAL_FROM copied by STRATEGY_TRIAL_TO where the workload says
 * the table runs faster so. The cells never choose STRATEGY_TRIAL_TO
 * themselves: what it saves is a branch that mispredicts on random sizes,
 * which the grid, timing one length at a time, never shows. */
#define STRATEGY_TRIAL_FROM STRATEGY_SMALL
#define STRATEGY_TRIAL_TO STRATEGY_SMALL_FLAT

/* The names, for an error message: "forward, forward_aligned, ...". */
#define STRATEGY_LIST_ITEM(id, name, ...) ", " name
#define STRATEGY_LIST (STRATEGIES(STRATEGY_LIST_ITEM) + 2)

#define STRATEGY_ENUM(id, name, min_n, max_n, isa, letter, fallback, code, ...) id = code,
enum copy_strategy { STRATEGIES(STRATEGY_ENUM) };
#undef STRATEGY_ENUM
#define STRATEGY_COUNT(...) +1
enum { N_COPY_STRATEGIES = 0 STRATEGIES(STRATEGY_COUNT) };
#undef STRATEGY_COUNT

/* The codes are 0..N_COPY_STRATEGIES-1, one a row in row order, so that a
 * table of strategies may be indexed by code: each row's code is the number
 * of rows before it. */
#define STRATEGY_ORDER(id, name, min_n, max_n, isa, letter, fallback, code, ...) +((code) == __COUNTER__ - order_base_)
enum { order_base_ = __COUNTER__ + 1 };
_Static_assert(0 STRATEGIES(STRATEGY_ORDER) == N_COPY_STRATEGIES,
	       "catalogue rows out of code order: a new strategy takes the next code, last");
#undef STRATEGY_ORDER

#define BASELINE_STRATEGY STRATEGY_FORWARD

/* One row of the catalogue as a record (strategies.c), for code that asks
 * a strategy's properties: no file outside the catalogue names a strategy
 * to decide something. */
struct strategy {
	const char *name;
	int min_n, max_n; /* max_n -1: no limit */
	int isa;          /* an enum isa_level */
	char letter;
	int fallback, code;
	int direction; /* an enum copy_direction */
	int streams, aligns;
	int defers;  /* runs the C library's memmove (strategy_offered) */
	const char *clobbers, *what;
};
extern const struct strategy strategy_catalogue[N_COPY_STRATEGIES];
extern const char *const isa_names[N_ISA_LEVELS];
extern const char *const direction_names[N_DIRECTIONS];

/* The row of a code, or NULL for a code the catalogue lacks. */
const struct strategy *strategy_of(int code);
/* Whether a flavor of isa isa_level runs strategy code: its isa allows it,
 * and where it defers to the C library's memmove, the flavor has a
 * memmove (moves), the drop-in library's. */
int strategy_offered(int code, int isa_level, int moves);
/* Whether strategy code copies length n (its min_n..max_n). */
int strategy_serves(int code, unsigned int n);
/* The code of the strategy called name, or -1 where the catalogue has
 * none so called. */
int strategy_named(const char *name);

#endif
