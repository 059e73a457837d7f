/* A dynamic object's PLT slot of a function (jump_slot.h). */
#include "jump_slot.h"

#include <elf.h>
#include <stddef.h>
#include <string.h>

void **jump_slot(const ElfW(Dyn) *dynamic, uintptr_t base, const char *name)
{
	uintptr_t jmprel = 0, symtab = 0, strtab = 0;
	size_t relsz = 0;
	for (const ElfW(Dyn) *d = dynamic; d->d_tag != DT_NULL; d++) {
		/* The dynamic linker has added the load address to these. */
		uintptr_t a = d->d_un.d_ptr < base ? base + d->d_un.d_ptr : d->d_un.d_ptr;
		if (d->d_tag == DT_JMPREL)
			jmprel = a;
		else if (d->d_tag == DT_PLTRELSZ)
			relsz = d->d_un.d_val;
		else if (d->d_tag == DT_SYMTAB)
			symtab = a;
		else if (d->d_tag == DT_STRTAB)
			strtab = a;
	}
	const ElfW(Rela) *rel = (const ElfW(Rela) *)jmprel;
	const ElfW(Sym) *sym = (const ElfW(Sym) *)symtab;
	for (size_t k = 0; jmprel && symtab && strtab && k < relsz / sizeof *rel; k++)
		if (ELF64_R_TYPE(rel[k].r_info) == R_X86_64_JUMP_SLOT &&
		    strcmp((const char *)strtab + sym[ELF64_R_SYM(rel[k].r_info)].st_name, name) == 0)
			return (void **)(base + rel[k].r_offset);
	return NULL;
}
