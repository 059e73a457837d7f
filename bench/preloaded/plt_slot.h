/* The running program's own PLT slots: where its calls of a function
 * through the PLT jump (the GOT entry of its R_X86_64_JUMP_SLOT
 * relocation). tests/plt_slot.c reads them to see where the preloaded
 * library pointed them; build/preloaded points its memcpy slot at each
 * copy in turn, so that both reach theirs through the same PLT entry. */
#ifndef BENCH_PLT_SLOT_H
#define BENCH_PLT_SLOT_H

/* This program's slot of function name, or NULL where it has none (the
 * program calls name without its PLT). */
void **plt_slot(const char *name);

/* Makes slot's page writable (read-only where the program was linked
 * with -z now), and leaves it so: the benchmark writes the slot before
 * each timing. 0, or -1 after saying why. */
int plt_slot_writable(void **slot);

#endif
