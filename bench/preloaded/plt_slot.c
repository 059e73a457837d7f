/* The running program's own PLT slots (plt_slot.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "plt_slot.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

extern ElfW(Dyn) _DYNAMIC[];

/* The program's load address: 0 unless it is position-independent. */
static uintptr_t load_address(void)
{
	struct link_map *self = dlopen(NULL, RTLD_NOW);
	return self ? self->l_addr : 0;
}

void **plt_slot(const char *name)
{
	uintptr_t base = load_address(), jmprel = 0, symtab = 0, strtab = 0;
	size_t relsz = 0;
	for (const ElfW(Dyn) *d = _DYNAMIC; d->d_tag != DT_NULL; d++) {
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

int plt_slot_writable(void **slot)
{
	long size = sysconf(_SC_PAGESIZE);
	uintptr_t page = (uintptr_t)slot & ~(uintptr_t)(size > 0 ? size - 1 : 4095);
	if (mprotect((void *)page, (size_t)(size > 0 ? size : 4096), PROT_READ | PROT_WRITE) != 0) {
		perror("plt_slot: mprotect");
		return -1;
	}
	return 0;
}
