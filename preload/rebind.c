/* The shared library's memcpy and memmove without a hop (rebind.h).
 *
 * A preloaded library cannot make them IFUNC symbols (uarchcopy.c says
 * why), so they are a stub that jumps through a pointer. A program calls
 * them through its PLT, itself one jump through a slot of its GOT: pointed
 * at the chosen routine, that slot is the only jump, as it is without the
 * library, where it points at the C library's memcpy. The stub's jump cost
 * 0.6 ticks a call at 8..128 bytes on a Zen 5 guest, 12% of the C
 * library's 4.8 (time_copy, the C library's memmove called through its
 * pointer and behind one jump more, glibc 2.36).
 *
 * Only data is written: GOT slots, which the dynamic linker itself writes
 * when it binds them. A slot of an object linked with -z now lies in its
 * PT_GNU_RELRO segment, which the dynamic linker made read-only after
 * relocating it; that page is made writable for the write and read-only
 * again at once. No page is ever made executable. */
#define _GNU_SOURCE
#include "rebind.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct rebinding {
	copy_fn *stub, *to_memcpy, *to_memmove;
	uintptr_t page;
	struct rebound done;
};

/* Whether address a lies in one of o's segments of type type. */
static int in_segment(const struct dl_phdr_info *o, unsigned int type, uintptr_t a)
{
	for (int i = 0; i < o->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &o->dlpi_phdr[i];
		uintptr_t start = o->dlpi_addr + p->p_vaddr;
		if (p->p_type == type && a >= start && a - start < p->p_memsz)
			return 1;
	}
	return 0;
}

/* An address the dynamic section gives: the dynamic linker has added the
 * load address to most of them in place, not to those of a read-only
 * dynamic section (the vDSO's). */
static uintptr_t dynamic_address(const struct dl_phdr_info *o, ElfW(Addr) a)
{
	return a < o->dlpi_addr ? o->dlpi_addr + a : a;
}

/* Whether page lies in the part of o's PT_GNU_RELRO segment the dynamic
 * linker made read-only: its whole pages, the last partial one left
 * writable with the data after it (glibc's _dl_protect_relro). */
static int read_only_page(const struct dl_phdr_info *o, uintptr_t page, uintptr_t size)
{
	for (int i = 0; i < o->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &o->dlpi_phdr[i];
		uintptr_t start = (o->dlpi_addr + p->p_vaddr) & ~(size - 1),
			  end = (o->dlpi_addr + p->p_vaddr + p->p_memsz) & ~(size - 1);
		if (p->p_type == PT_GNU_RELRO && page >= start && page < end)
			return 1;
	}
	return 0;
}

/* Writes to into *slot, making its page writable for the write where it
 * is read-only. 0, or -1 where the page could not be made writable. */
static int write_slot(const struct dl_phdr_info *o, struct rebinding *r, copy_fn **slot, copy_fn *to)
{
	uintptr_t page = (uintptr_t)slot & ~(r->page - 1);
	int relro = read_only_page(o, page, r->page);
	if (relro && mprotect((void *)page, r->page, PROT_READ | PROT_WRITE) != 0)
		return -1;
	__atomic_store_n(slot, to, __ATOMIC_RELEASE);
	if (relro)
		mprotect((void *)page, r->page, PROT_READ);
	return 0;
}

/* One slot of o, for the symbol named name: where the program's symbols
 * bind name to the stub, its slot holds the stub, or the address of its
 * own PLT entry's way to the dynamic linker while it is unbound. */
static void rebind_slot(const struct dl_phdr_info *o, struct rebinding *r, copy_fn **slot, const char *name)
{
	copy_fn *to = strcmp(name, "memcpy") == 0 ? r->to_memcpy : strcmp(name, "memmove") == 0 ? r->to_memmove : NULL;
	if (!to)
		return;
	copy_fn *now = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	if (now != r->stub && !in_segment(o, PT_LOAD, (uintptr_t)now)) {
		r->done.elsewhere++;
		return;
	}
	if (write_slot(o, r, slot, to) != 0)
		r->done.refused++;
	else
		r->done.slots++;
}

/* The PLT relocations of object o: every one, by the symbol it binds. */
static int rebind_object(struct dl_phdr_info *o, size_t size, void *data)
{
	(void)size;
	struct rebinding *r = data;
	const ElfW(Dyn) *dyn = NULL;
	for (int i = 0; i < o->dlpi_phnum; i++)
		if (o->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(o->dlpi_addr + o->dlpi_phdr[i].p_vaddr);
	if (!dyn || in_segment(o, PT_LOAD, (uintptr_t)r->stub))
		return 0;
	uintptr_t jmprel = 0, symtab = 0, strtab = 0;
	size_t relsz = 0;
	int rela = 0;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_JMPREL)
			jmprel = dynamic_address(o, dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_PLTRELSZ)
			relsz = dyn->d_un.d_val;
		else if (dyn->d_tag == DT_PLTREL)
			rela = dyn->d_un.d_val == DT_RELA;
		else if (dyn->d_tag == DT_SYMTAB)
			symtab = dynamic_address(o, dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_STRTAB)
			strtab = dynamic_address(o, dyn->d_un.d_ptr);
	}
	if (!jmprel || !symtab || !strtab || !rela)
		return 0;
	const ElfW(Rela) *rel = (const ElfW(Rela) *)jmprel;
	const ElfW(Sym) *sym = (const ElfW(Sym) *)symtab;
	for (size_t k = 0; k < relsz / sizeof *rel; k++)
		if (ELF64_R_TYPE(rel[k].r_info) == R_X86_64_JUMP_SLOT)
			rebind_slot(o, r, (copy_fn **)(o->dlpi_addr + rel[k].r_offset),
				    (const char *)strtab + sym[ELF64_R_SYM(rel[k].r_info)].st_name);
	return 0;
}

struct rebound rebind_copies(copy_fn *stub, copy_fn *to_memcpy, copy_fn *to_memmove)
{
	long page = sysconf(_SC_PAGESIZE);
	struct rebinding r = {stub, to_memcpy, to_memmove, (uintptr_t)(page > 0 ? page : 4096), {0, 0, 0}};
	/* A program that defines memcpy or memmove itself keeps them: every
	 * object's slot binds to its definition, which comes first. */
	if ((copy_fn *)dlsym(RTLD_DEFAULT, "memcpy") != stub)
		r.to_memcpy = NULL;
	if ((copy_fn *)dlsym(RTLD_DEFAULT, "memmove") != stub)
		r.to_memmove = NULL;
	dl_iterate_phdr(rebind_object, &r);
	return r.done;
}
