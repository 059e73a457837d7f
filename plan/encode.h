/* A branch tree (tree.h) as x86-64 machine code: the bytes the assembler
 * makes of dispatch.tpi's printing of it in a generic build, where every
 * jump, to a copy or to a label of the tree, is rel32, then the copies a
 * patched entry holds after it (layout.h), as cases.tpi lays them out. The
 * probe runs it, jumping to the copies it links, to time a candidate table
 * as the entry gen would patch for it. */
#ifndef PLAN_ENCODE_H
#define PLAN_ENCODE_H

#include "layout.h"
#include "tree.h"

#include <stddef.h>
#include <stdint.h>

/* The longest code of a tree of PLAN_MAX_BANDS bands: a band's leaf, its
 * tests and the split above it take at most 80 bytes, and each cut at a
 * piece's edge a compare and two jumps more. */
#define PLAN_CODE_MAX (PLAN_MAX_BANDS * (80 + (PLAN_MAX_PIECES - 1) * 19))

/* The most bytes of the copies an entry holds after its tree: those of
 * every strategy plan_inline takes, laid out one after another. */
#define PLAN_INLINE_MAX 2048

/* Where a tree's jumps land: strategy s's copy at body[s], its piece i
 * (pieces.h) at piece[i]; 0 where the code has none. A copy laid out after
 * the tree instead: its body's bytes at bytes[s], len[s] of them, and its
 * piece i at piece_at[i] bytes into them, piece_len[i] of them to the end
 * of its return (bytes[s] NULL: the copy is elsewhere). A goto that falls
 * (tree.h) to a copy laid out so is those bytes, the piece's or the
 * body's, instead of a jump. */
struct plan_targets {
	uintptr_t body[N_COPY_STRATEGIES];
	uintptr_t piece[N_PLAN_PIECES];
	const uint8_t *bytes[N_COPY_STRATEGIES];
	size_t len[N_COPY_STRATEGIES];
	size_t piece_at[N_PLAN_PIECES], piece_len[N_PLAN_PIECES];
};

/* Writes tree's code into out[0..cap), to run at address base, its jumps
 * landing at targets, a goto that falls as the bytes of its copy, then the
 * copies targets gives the bytes of, in the order of plan_layout; a last
 * jump to the first of them is left out, as the tree falls through to it.
 * Returns its length, or 0 when it does not fit in cap, a step is not one
 * of the compiled tree's, or a target is missing or further than rel32
 * reaches. */
size_t plan_encode(const struct plan_tree *tree, uint8_t *out, size_t cap, uintptr_t base,
		   const struct plan_targets *targets);

#endif
