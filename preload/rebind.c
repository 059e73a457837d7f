/* The shared library's memcpy and memmove without a hop (rebind.h).
 *
 * A preloaded library cannot make them IFUNC symbols (uarchcopy.c says
 * why), so they are a stub that jumps through a pointer. A program calls
 * them through its PLT, itself one jump through a slot of its GOT: pointed
 * at the chosen routine, that slot is the only jump, as it is without the
 * library, where it points at the C library's memcpy. The stub's jump
 * costs a short copy about a tenth of its time (measured: see
 * docs/notebook/comment-figures-2026-12.md#the-stubs-jump).
 *
 * Every slot the dynamic linker bound to the stub takes the same routine,
 * in every object: the PLT slots; the GOT slots, through which code takes
 * the address (and calls, built -fno-plt or linked so: call *memcpy@GOTPCREL);
 * and the pointers static initializers hold. C wants &memcpy to compare
 * equal wherever it is taken, so the address is one value in all of them:
 * the routine's. Where the program's own PLT entry stands for the address
 * (a program built without -fPIE that takes it), every GOT slot and
 * pointer holds that entry, as without the library, and only the
 * program's PLT slot behind it is pointed past the stub: a call through
 * the address then takes the one jump it takes without the library. The
 * symbol is still the stub: dlsym(RTLD_DEFAULT, "memcpy") returns it
 * (dlsym is not wrapped, as its RTLD_NEXT is relative to its caller), and
 * so does a slot read before its pass (a constructor of a library being
 * opened).
 *
 * Only data is written: slots, which the dynamic linker itself writes
 * when it binds them, each with a compare-and-swap from the value it
 * left, so that a program's own store to a pointer is never lost. A slot
 * in an object's PT_GNU_RELRO segment, which the dynamic linker made
 * read-only after relocating it, is written with its page made writable
 * for the write and read-only again at once. Other threads read the page
 * as before meanwhile; what they lose is a fault on a stray store into
 * it, for that moment. Only the dynamic linker, while it loads the
 * object, and the passes write there, and neither makes a page read-only
 * under the other's write: the passes take a lock and do only objects
 * loaded whole (rebind_pass). No page is ever made executable, and none
 * outside a writable segment is made writable (a text relocation's
 * pointer keeps the stub). */
#define _GNU_SOURCE
#include "rebind.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum kind { PLT_SLOT, GOT_SLOT, POINTER };

/* What the constructor chose; written before ready is set. addresses:
 * whether GOT slots and pointers, the addresses the program sees, may be
 * written (read and cleared under the lock). */
static struct {
	copy_fn *stub, *to_memcpy, *to_memmove;
	uintptr_t page;
	int ready, addresses;
} bind;

/* Passes are serialized: two would make one RELRO page writable and
 * read-only again across each other's write. seen is how many objects of
 * the namespace's list, from its head, the passes have done while
 * seen_subs objects had been unloaded; -1 before the first. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int seen = -1;
static unsigned long long seen_subs;

/* One pass: the objects it does (index from..limit-1), those of them new
 * since the last pass (from data_from: their pointers in writable data
 * are the dynamic linker's still; new_object, the one at index), and the
 * unload count it was planned under. */
struct pass {
	int index, from, data_from, limit, aborted, new_object;
	unsigned long long subs;
	struct rebound done;
};

/* Whether address a lies in one of o's segments of type type (with flags
 * flags set). */
static int in_segment(const struct dl_phdr_info *o, unsigned int type, unsigned int flags, uintptr_t a)
{
	for (int i = 0; i < o->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &o->dlpi_phdr[i];
		uintptr_t start = o->dlpi_addr + p->p_vaddr;
		if (p->p_type == type && (p->p_flags & flags) == flags && a >= start && a - start < p->p_memsz)
			return 1;
	}
	return 0;
}

static const ElfW(Dyn) *dynamic_of(const struct dl_phdr_info *o)
{
	for (int i = 0; i < o->dlpi_phnum; i++)
		if (o->dlpi_phdr[i].p_type == PT_DYNAMIC)
			return (const ElfW(Dyn) *)(o->dlpi_addr + o->dlpi_phdr[i].p_vaddr);
	return NULL;
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
static int read_only_page(const struct dl_phdr_info *o, uintptr_t page)
{
	for (int i = 0; i < o->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &o->dlpi_phdr[i];
		uintptr_t start = (o->dlpi_addr + p->p_vaddr) & ~(bind.page - 1),
			  end = (o->dlpi_addr + p->p_vaddr + p->p_memsz) & ~(bind.page - 1);
		if (p->p_type == PT_GNU_RELRO && page >= start && page < end)
			return 1;
	}
	return 0;
}

/* Whether the dynamic linker left a slot as it binds it to the stub: the
 * stub, or, where lazy, a PLT slot not bound yet, which points at its own
 * object's PLT entry's way to the dynamic linker. Not lazy: the PLT slot
 * of a symbol its object defines, which may bind there (RTLD_DEEPBIND). */
static int on_stub(const struct dl_phdr_info *o, int lazy, copy_fn *now)
{
	return now == bind.stub || (lazy && in_segment(o, PT_LOAD, 0, (uintptr_t)now));
}

/* Points *slot at to where it is on the stub; counts what it did. A
 * pointer in writable data only in an object new since the last pass:
 * later the program may have stored it. Once an address could not be
 * written, none is: the program's addresses stay the stub's, one address
 * still where that was so from the start (a filter that refuses to make
 * pages writable is found before a pass writes any; one installed after
 * a pass wrote some leaves two). */
static void write_slot(const struct dl_phdr_info *o, struct pass *p, copy_fn **slot, enum kind kind, int lazy,
		       copy_fn *to)
{
	uintptr_t page = (uintptr_t)slot & ~(bind.page - 1);
	copy_fn *now = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	int relro = read_only_page(o, page);
	if (!on_stub(o, lazy, now) || (kind == POINTER && !relro && !p->new_object)) {
		p->done.elsewhere += !on_stub(o, lazy, now);
		return;
	}
	if ((kind != PLT_SLOT && !bind.addresses) || !in_segment(o, PT_LOAD, PF_W, (uintptr_t)slot) ||
	    (relro && mprotect((void *)page, bind.page, PROT_READ | PROT_WRITE) != 0)) {
		bind.addresses &= kind == PLT_SLOT;
		p->done.refused++;
		return;
	}
	int swapped = 0;
	while (!swapped && on_stub(o, lazy, now))
		swapped = __atomic_compare_exchange_n(slot, &now, to, 0, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE);
	if (relro)
		mprotect((void *)page, bind.page, PROT_READ);
	p->done.slots += swapped;
	p->done.elsewhere += !swapped;
}

/* The relocations rel[0..n-1] of o against memcpy or memmove: PLT slots
 * where plt, else GOT slots and pointers (with no addend, and aligned). */
static void rebind_table(const struct dl_phdr_info *o, struct pass *p, const ElfW(Rela) *rel, size_t n,
			 const ElfW(Sym) *sym, const char *strtab, int plt)
{
	for (size_t k = 0; k < n; k++) {
		unsigned int type = ELF64_R_TYPE(rel[k].r_info);
		enum kind kind = type == R_X86_64_JUMP_SLOT ? PLT_SLOT : type == R_X86_64_GLOB_DAT ? GOT_SLOT : POINTER;
		if ((kind == PLT_SLOT) != plt || (kind == POINTER && (type != R_X86_64_64 || rel[k].r_addend != 0)))
			continue;
		const ElfW(Sym) *s = &sym[ELF64_R_SYM(rel[k].r_info)];
		const char *name = strtab + s->st_name;
		copy_fn *to = strcmp(name, "memcpy") == 0 ? bind.to_memcpy : strcmp(name, "memmove") == 0 ? bind.to_memmove : NULL;
		uintptr_t at = o->dlpi_addr + rel[k].r_offset;
		if (to && at % sizeof(void *) == 0)
			write_slot(o, p, (copy_fn **)at, kind, kind == PLT_SLOT && s->st_shndx == SHN_UNDEF, to);
	}
}

/* Object o's slots: its PLT relocations, then the GOT slots and pointers
 * among its other relocations (past the relative ones, which name no
 * symbol). */
static void rebind_object(const struct dl_phdr_info *o, struct pass *p)
{
	const ElfW(Dyn) *dyn = dynamic_of(o);
	if (!dyn || in_segment(o, PT_LOAD, 0, (uintptr_t)bind.stub))
		return;
	uintptr_t jmprel = 0, rela = 0, symtab = 0, strtab = 0;
	size_t jmprelsz = 0, relasz = 0, relative = 0;
	int plt_rela = 0;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_JMPREL)
			jmprel = dynamic_address(o, dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_PLTRELSZ)
			jmprelsz = dyn->d_un.d_val;
		else if (dyn->d_tag == DT_PLTREL)
			plt_rela = dyn->d_un.d_val == DT_RELA;
		else if (dyn->d_tag == DT_RELA)
			rela = dynamic_address(o, dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_RELASZ)
			relasz = dyn->d_un.d_val;
		else if (dyn->d_tag == DT_RELACOUNT)
			relative = dyn->d_un.d_val;
		else if (dyn->d_tag == DT_SYMTAB)
			symtab = dynamic_address(o, dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_STRTAB)
			strtab = dynamic_address(o, dyn->d_un.d_ptr);
	}
	if (!symtab || !strtab)
		return;
	const ElfW(Sym) *sym = (const ElfW(Sym) *)symtab;
	if (jmprel && plt_rela)
		rebind_table(o, p, (const ElfW(Rela) *)jmprel, jmprelsz / sizeof(ElfW(Rela)), sym, (const char *)strtab, 1);
	if (rela && relative < relasz / sizeof(ElfW(Rela)))
		rebind_table(o, p, (const ElfW(Rela) *)rela + relative, relasz / sizeof(ElfW(Rela)) - relative, sym,
			     (const char *)strtab, 0);
}

static int pass_object(struct dl_phdr_info *o, size_t size, void *data)
{
	(void)size;
	struct pass *p = data;
	if (o->dlpi_subs != p->subs) {
		p->aborted = 1;
		return 1;
	}
	if (p->index >= p->limit)
		return 1;
	p->new_object = p->index >= p->data_from;
	if (p->index >= p->from)
		rebind_object(o, p);
	p->index++;
	return 0;
}

static int count_object(struct dl_phdr_info *o, size_t size, void *data)
{
	(void)size;
	struct pass *p = data;
	p->limit++;
	p->subs = o->dlpi_subs;
	return 0;
}

/* Whether this process may make a page writable (a seccomp filter may
 * refuse it): tried on a page of its own before each pass, so that a pass
 * writes all the addresses it would or none. */
static int pages_writable(void)
{
	void *p = mmap(NULL, bind.page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 0;
	int writable = mprotect(p, bind.page, PROT_READ | PROT_WRITE) == 0;
	munmap(p, bind.page);
	return writable;
}

/* Points the slots of the objects of this namespace loaded since the last
 * pass (of all of them where one was unloaded since, their pointers in
 * writable data then left alone). dl_iterate_phdr lists the caller's
 * namespace only, objects appended at its tail, and lists an object from
 * the moment it is mapped, before the dynamic linker has relocated it and
 * made its RELRO read-only (glibc 2.36's _dl_map_object_from_fd, then
 * _dl_relocate_object); a pass writing there then could make a page
 * read-only under the loader's next write. So a pass counts the objects,
 * then waits on the loader's lock (dladdr takes it, as dlopen and dlclose
 * hold it from start to end), and does only the objects it counted, each
 * then whole; an unload meanwhile, which shifts them, makes it count
 * again. The lock is taken after that wait, and the pass calls nothing
 * that takes the loader's lock: a dlopen that holds it, called from a
 * constructor, can wait on this lock without a deadlock. */
static struct rebound rebind_pass(void)
{
	struct pass p = {0};
	for (int tries = 0; tries < 4; tries++) {
		Dl_info info;
		p = (struct pass){0};
		dl_iterate_phdr(count_object, &p);
		dladdr(&bind, &info);
		pthread_mutex_lock(&lock);
		bind.addresses = bind.addresses && pages_writable();
		int again = seen < 0 || p.subs != seen_subs;
		p.from = again ? 0 : seen;
		p.data_from = seen < 0 ? 0 : again ? p.limit : seen;
		dl_iterate_phdr(pass_object, &p);
		if (!p.aborted)
			seen = p.limit, seen_subs = p.subs;
		pthread_mutex_unlock(&lock);
		if (!p.aborted)
			break;
	}
	return p.done;
}

/* After fork the child's lock is free: the thread that may have held it
 * is not there. */
static void child_unlock(void)
{
	pthread_mutex_init(&lock, NULL);
}

/* What the slots of name take: to; NULL where the program's symbols bind
 * name to a definition of its own, which comes first. The program's PLT
 * entry, which stands for the address of a function it calls but does
 * not define where it takes that address in code built without -fPIE, is
 * an undefined symbol with a value: then its slot is pointed past the
 * stub like every other. */
static copy_fn *bound_to(const char *name, copy_fn *to)
{
	void *d = dlsym(RTLD_DEFAULT, name);
	const ElfW(Sym) *sym = NULL;
	Dl_info info;
	if (d == (void *)bind.stub)
		return to;
	return d && dladdr1(d, &info, (void **)&sym, RTLD_DL_SYMENT) && sym && sym->st_shndx == SHN_UNDEF ? to : NULL;
}

struct rebound rebind_copies(copy_fn *stub, copy_fn *to_memcpy, copy_fn *to_memmove)
{
	long page = sysconf(_SC_PAGESIZE);
	bind.stub = stub;
	bind.page = (uintptr_t)(page > 0 ? page : 4096);
	bind.addresses = 1;
	bind.to_memcpy = bound_to("memcpy", to_memcpy);
	bind.to_memmove = bound_to("memmove", to_memmove);
	pthread_atfork(NULL, NULL, child_unlock);
	struct rebound done = rebind_pass();
	__atomic_store_n(&bind.ready, 1, __ATOMIC_RELEASE);
	return done;
}

/* dlopen and dlmopen (uarchcopy.c) rebind what they load before they
 * return, where the C library's, called from this library, loads what it
 * loads called from the caller. The dynamic linker resolves a name
 * without a slash along the RPATH and RUNPATH of the object that called
 * dlopen, found by its return address, expands $ORIGIN from that
 * object's folder, and makes it the loaded object's loader, whose RPATH
 * its dependencies search (glibc 2.36's dl_open_worker and
 * _dl_map_object). Called from here, the loader would be this library,
 * whose loader is the program. So the C library's dlopen is called from
 * here only where that loads the same files: no $ in the name, no object
 * of the namespace but the program with a DT_RPATH (the program's is
 * searched either way), and, for a name without a slash, neither the
 * caller nor this library with a DT_RUNPATH or DF_1_NODEFLIB (where the
 * caller lies in no object, the program is the loader). Elsewhere the
 * wrapper jumps to it, the caller's return address left in place, and
 * what it loads keeps the stub until the next pass, as what the C library
 * opens itself (NSS modules, iconv's) does. */
struct loader {
	const void *caller;
	int bare, index, found, differs, program_own;
};

static int loader_scan(struct dl_phdr_info *o, size_t size, void *data)
{
	(void)size;
	struct loader *l = data;
	int rpath = 0, own = 0, program = l->index++ == 0 && o->dlpi_name && !o->dlpi_name[0];
	for (const ElfW(Dyn) *d = dynamic_of(o); d && d->d_tag != DT_NULL; d++) {
		rpath |= d->d_tag == DT_RPATH;
		own |= d->d_tag == DT_RUNPATH || (d->d_tag == DT_FLAGS_1 && (d->d_un.d_val & DF_1_NODEFLIB));
	}
	own &= l->bare;
	l->differs |= rpath && !program;
	l->program_own |= own && program;
	if (in_segment(o, PT_LOAD, 0, (uintptr_t)l->caller))
		l->found = 1, l->differs |= own;
	l->differs |= own && in_segment(o, PT_LOAD, 0, (uintptr_t)bind.stub);
	return 0;
}

int rebind_same_loader(const char *file, int mode, const void *caller)
{
	if (!__atomic_load_n(&bind.ready, __ATOMIC_ACQUIRE) || !file || (mode & RTLD_NOLOAD) || strchr(file, '$') ||
	    (!bind.to_memcpy && !bind.to_memmove))
		return 0;
	struct loader l = {caller, strchr(file, '/') == NULL, 0, 0, 0, 0};
	dl_iterate_phdr(loader_scan, &l);
	return !l.differs && (l.found || !l.program_own);
}

void *rebind_opened(void *handle)
{
	int e = errno;
	if (handle)
		rebind_pass();
	errno = e;
	return handle;
}
