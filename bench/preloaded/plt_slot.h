/* Where this program's calls of memcpy and memmove land: its own PLT
 * slots, where its calls through the PLT jump (the GOT entry of an
 * R_X86_64_JUMP_SLOT relocation), and the code a jump leads to.
 * tests/plt_slot.c reads the slots to see where the preloaded library
 * pointed them; build/preloaded points its memcpy slot at each copy in
 * turn, so that both reach theirs through the same PLT entry.
 *
 * Both sides of a ratio are so timed through the same entry: the
 * library's copy, where its constructor pointed the slot, or the C
 * library's, where the slot points without the library. A plain jump
 * through a pointer, standing in for the C library's PLT entry, costs
 * less than the entry itself (measured: see
 * docs/notebook/comment-figures-2026-12.md#both-copies-through-one-plt-entry):
 * a ratio of the two is not one of the copies. */
#ifndef BENCH_PLT_SLOT_H
#define BENCH_PLT_SLOT_H

#include "../../common/timer.h"

/* This program's slot of function name, or NULL where it has none (the
 * program calls name without its PLT). */
void **plt_slot(const char *name);

/* Makes slot's page writable (read-only where the program was linked
 * with -z now), and leaves it so: the benchmark writes the slot before
 * each timing. 0, or -1 after saying why. */
int plt_slot_writable(void **slot);

/* A copy as the program reaches it through its PLT: entry, the program's
 * PLT entry of memcpy or memmove, its slot pointed at to first. */
struct through_plt {
	void **slot;
	copy_fn entry, to;
};

/* c's entry, its slot pointed at c's copy first. */
copy_fn reach(const struct through_plt *c);

/* The library's memcpy and memmove, where the program's PLT slots point
 * once called (where the preloaded library's constructor pointed them,
 * preload/rebind.c), and the C library's, each through the same PLT
 * entry; and entry, the memmove the program's symbols resolve to: the
 * preloaded library's. */
struct plt_copies {
	struct through_plt ours_memcpy, libc_memcpy, ours_memmove, libc_memmove;
	void *entry;
};

/* Fills out. 0; 2 after saying why where the library is not preloaded
 * (memmove resolves into the C library's object); 1 after saying why on
 * another failure. program names the benchmark in what it says. */
int plt_copies(const char *program, struct plt_copies *out);

/* The object that holds addr, by file name. */
const char *object_of(const void *addr);

/* Where the code at p goes first: the target of a jmp rel32 or of a
 * jmp [rip + disp32], after an endbr64; p itself where it is neither. */
const void *first_jump(const unsigned char *p);

#endif
