/* The shared library's memcpy and memmove without a hop: every slot of
 * every loaded object that the dynamic linker bound to the stub, pointed
 * at the routine the constructor chose (preload/rebind.c). */
#ifndef PRELOAD_REBIND_H
#define PRELOAD_REBIND_H

#include <stddef.h>

typedef void *copy_fn(void *dst, const void *src, size_t n);

/* What a pass did: slots pointed at the chosen copies; slots left on the
 * stub because their page could not be made writable (a seccomp filter,
 * say); slots left as they were because they were bound elsewhere than
 * the stub (an object with its own memcpy, or the program's PLT entry
 * standing for memcpy's address). */
struct rebound {
	int slots, refused, elsewhere;
};

/* Points the slots named memcpy or memmove, in every object loaded now
 * but the one holding stub, at to_memcpy or to_memmove: each PLT slot
 * (R_X86_64_JUMP_SLOT) that holds stub or is not bound yet (lazy
 * binding: it points into its own object's PLT), each GOT slot
 * (R_X86_64_GLOB_DAT, through which a program takes the address or calls
 * with -fno-plt) and each pointer a static initializer holds
 * (R_X86_64_64) that holds stub. Nothing where the program's symbols
 * bind the name to a definition of its own. A slot in a page made
 * read-only after relocation (PT_GNU_RELRO) is written with that page
 * made writable for the write, and read-only again after it; where that
 * is refused, the slot keeps stub, and so does every GOT slot and pointer
 * after it (and every one where this process may make no page writable):
 * the address of memcpy that the program sees stays one. */
struct rebound rebind_copies(copy_fn *stub, copy_fn *to_memcpy, copy_fn *to_memmove);

/* Whether the C library's dlopen or dlmopen, called from this library,
 * loads for file and mode what it loads called from caller, a return
 * address (rebind.c says when); 0 before rebind_copies, and where the
 * program keeps its own memcpy and memmove. */
int rebind_same_loader(const char *file, int mode, const void *caller);

/* handle, which the C library's dlopen or dlmopen returned: where it is
 * not NULL, the slots of the objects loaded since the last pass are
 * pointed past the stub first. errno is left as it was. */
void *rebind_opened(void *handle);

#endif
