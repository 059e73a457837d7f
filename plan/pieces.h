/* Where a copy's body may be entered past its own compares on the length.
 * avx512_medium tests n against 63, then 128, before its moves; a tree
 * that has already split its lengths there jumps to the moves of its
 * piece, so that a call of 64..128 bytes runs the tree's compares and no
 * more, as the C library's memmove reaches those moves in two compares
 * (glibc 2.36's __memmove_avx512_unaligned_erms, sysdeps/x86_64/multiarch/
 * memmove-vec-unaligned-erms.S: n below 64, then above 128).
 * The body template prints a label at each piece (bodies/
 * avx512_medium.tpi, .L<tag>_n<lo>), and the tree (tree_length.c) cuts a leaf
 * at the pieces' edges. Only for a copy that loads everything before it
 * stores (DIR_ANY): memmove's overlap compares, which a copy that goes one
 * way takes before its body, are never skipped. */
#ifndef PLAN_PIECES_H
#define PLAN_PIECES_H

#include "../common/strategies.h"

struct plan_piece {
	int strategy;
	unsigned int lo, hi; /* the lengths the piece copies, the label's name from lo */
};

#define N_PLAN_PIECES 3
/* The most pieces one strategy has. */
#define PLAN_MAX_PIECES 3

/* Each strategy's pieces in length order, one after another. */
extern const struct plan_piece plan_pieces[N_PLAN_PIECES];

/* The piece of strategy that holds lengths lo..hi whole; -1 where none
 * does (the body is entered at its start). */
int plan_piece_of(int strategy, unsigned int lo, unsigned int hi);

/* The first edge (a piece's last length) of strategy inside lo..hi - 1,
 * where a leaf of lo..hi is cut; 0 where none. */
unsigned int plan_piece_cut(int strategy, unsigned int lo, unsigned int hi);

#endif
