/* A dynamic object's PLT slot of a function: the GOT entry its
 * R_X86_64_JUMP_SLOT relocation names, where calls through its PLT jump. */
#ifndef COMMON_JUMP_SLOT_H
#define COMMON_JUMP_SLOT_H

#include <link.h>
#include <stdint.h>

/* The slot of function name in the object whose dynamic section is
 * dynamic, loaded at base; NULL where the object has none (it calls name
 * without its PLT, or not at all). */
void **jump_slot(const ElfW(Dyn) *dynamic, uintptr_t base, const char *name);

#endif
