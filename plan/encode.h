/* A branch tree (tree.h) as x86-64 machine code: the bytes the assembler
 * makes of dispatch.tpi's printing of it in a generic build, where every
 * jump to a copy is rel32 and a jump to a label of the tree is short where
 * it reaches. The probe runs it, jumping to the copies it links, to time a
 * candidate table as the routine gen would write for it. */
#ifndef PLAN_ENCODE_H
#define PLAN_ENCODE_H

#include "tree.h"

#include <stddef.h>
#include <stdint.h>

/* The longest code of a tree of PLAN_MAX_BANDS bands: a band's leaf, its
 * tests and the split above it take at most 80 bytes, and each cut at a
 * piece's edge a compare and two jumps more. */
#define PLAN_CODE_MAX (PLAN_MAX_BANDS * (80 + (PLAN_MAX_PIECES - 1) * 19))

/* Where a tree's jumps land: strategy s's copy at body[s], its piece i
 * (pieces.h) at piece[i]; 0 where the code has none. */
struct plan_targets {
	uintptr_t body[N_COPY_STRATEGIES];
	uintptr_t piece[N_PLAN_PIECES];
};

/* Writes tree's code into out[0..cap), to run at address base, its jumps
 * landing at targets. Returns its length, or 0 when it does not fit in
 * cap, a step is not one of the compiled tree's, or a target is missing
 * or further than rel32 reaches. */
size_t plan_encode(const struct plan_tree *tree, uint8_t *out, size_t cap, uintptr_t base,
		   const struct plan_targets *targets);

#endif
