/* The shared library's memcpy and memmove without a hop: each loaded
 * object's PLT slot for them pointed at the routine the constructor chose
 * (preload/rebind.c). */
#ifndef PRELOAD_REBIND_H
#define PRELOAD_REBIND_H

#include <stddef.h>

typedef void *copy_fn(void *dst, const void *src, size_t n);

/* What rebind_copies did: slots pointed at the chosen copies; slots left on
 * the stub because their page could not be made writable (a seccomp
 * filter, say); slots left as they were because they were bound elsewhere
 * than the stub (an object with its own memcpy). */
struct rebound {
	int slots, refused, elsewhere;
};

/* Points every PLT slot (R_X86_64_JUMP_SLOT) named memcpy or memmove, in
 * every object loaded now but the one holding stub, at to_memcpy or
 * to_memmove, where the slot holds stub or has not been bound yet (lazy
 * binding: it points into its own object's PLT), and where the program's
 * symbols bind that name to stub (a program may define its own memcpy).
 * A slot in a page made read-only after relocation (PT_GNU_RELRO) is
 * written with that page made writable for the write, and read-only again
 * after it; where that is refused, the slot keeps stub. */
struct rebound rebind_copies(copy_fn *stub, copy_fn *to_memcpy, copy_fn *to_memmove);

#endif
