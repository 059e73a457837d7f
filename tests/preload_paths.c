/* Every path by which a program reaches memcpy and memmove, and where each
 * leads (tests/preload.sh builds and runs it with and without
 * build/libuarchcopy.so, preload/rebind.c): the program's own, as its code
 * takes the address (built -fno-plt, its calls go through that GOT slot
 * too; built without -fPIE, the address is its own PLT entry) and as its
 * static initializers hold it, and its PLT slot where it has one; and
 * those of libraries (tests/preload_paths_lib.c): two it is linked with,
 * one that calls through its PLT and one that takes the address, and,
 * after its start, two opened with dlopen by path (RTLD_LAZY and
 * RTLD_NOW), one by name (found along LD_LIBRARY_PATH) and one with
 * dlmopen(LM_ID_BASE). Each library copies with both, and must copy right.
 *
 * Each line says where one leads: "libc" (the C library's own), "stub"
 * (the preloaded library's exported memcpy, which jumps on through a
 * pointer), "library" (elsewhere in libuarchcopy: a routine it chose),
 * "entry" (the program's PLT entry, which stands for the address in a
 * program built without -fPIE), or "other". Every address the code of
 * any object takes, or a static initializer holds, must be one address
 * for memcpy and one for memmove, as C wants.
 *
 * usage: preload_paths EXPECT DIR [--runpath]
 *   EXPECT: where every path must lead (libc or library; the addresses,
 *   in a program built without -fPIE: entry); DIR: the libraries. Prints a
 *   line a path, then "N paths, M astray; the address one|not one"; exits
 *   1 where M > 0 or the address is not one. With --runpath (a program
 *   linked with a DT_RUNPATH of DIR/rp) it first opens libpaths_rp.so by
 *   name, found along that RUNPATH alone, and $ORIGIN/libpaths_origin.so,
 *   and prints their paths as "before" (not counted), then the others,
 *   then theirs again. */
#define _GNU_SOURCE
#include "preload_paths.h"

#include "../common/jump_slot.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const names[2] = {"memcpy", "memmove"};
static copy_fn *const constant[2] = {memcpy, memmove};
static copy_fn *variable[2] = {memcpy, memmove};

const struct paths_lib *paths_call(void), *paths_take(void);

struct tally {
	const char *expect;
	int paths, astray, not_one;
	copy_fn *address[2];
};

/* Where v, the value of a path to name, leads. */
static const char *where(const char *name, copy_fn *v)
{
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	Dl_info at, program;
	if (libc && (void *)v == dlsym(libc, name))
		return "libc";
	if (!dladdr((void *)v, &at) || !at.dli_fname)
		return "other";
	if (strstr(at.dli_fname, "libuarchcopy"))
		return (void *)v == dlsym(RTLD_DEFAULT, name) ? "stub" : "library";
	if (dladdr((void *)where, &program) && program.dli_fbase == at.dli_fbase)
		return "entry";
	return "other";
}

/* One path; counted unless before, and, where it is an address, held to
 * the first address seen. */
static void see(struct tally *t, const char *object, const char *path, int k, copy_fn *v, int before)
{
	int address = strcmp(path, "plt") != 0;
	const char *w = where(names[k], v), *expect = t->expect;
#ifndef __PIE__
	if (address)
		expect = "entry";
#endif
	printf("%s %s %s %s%s\n", object, path, names[k], w, before ? " (before)" : "");
	if (before)
		return;
	t->paths++;
	t->astray += strcmp(w, expect) != 0;
	if (address && !t->address[k])
		t->address[k] = v;
	t->not_one += address && v != t->address[k];
}

struct find {
	uintptr_t in;
	const char *name;
	copy_fn **slot;
};

/* The PLT slot of name in the object that holds address in. */
static int find_slot(struct dl_phdr_info *o, size_t size, void *data)
{
	(void)size;
	struct find *f = data;
	const ElfW(Dyn) *dyn = NULL;
	int inside = 0;
	for (int i = 0; i < o->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &o->dlpi_phdr[i];
		if (p->p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(o->dlpi_addr + p->p_vaddr);
		if (p->p_type == PT_LOAD && f->in - (o->dlpi_addr + p->p_vaddr) < p->p_memsz)
			inside = 1;
	}
	if (!inside || !dyn)
		return 0;
	f->slot = (copy_fn **)jump_slot(dyn, o->dlpi_addr, f->name);
	return 1;
}

/* Every path of one object, once it has copied (a lazy PLT slot is bound
 * at its first call): its PLT slots, where it has them, found from in, an
 * address inside it; the addresses it shows. */
static void see_object(struct tally *t, const char *object, const void *in, const struct paths_lib *lib, int before)
{
	if (!lib->work()) {
		printf("%s: its copies went wrong\n", object);
		t->astray++;
	}
	for (int k = 0; k < 2; k++) {
		struct find f = {(uintptr_t)in, names[k], NULL};
		dl_iterate_phdr(find_slot, &f);
		if (f.slot)
			see(t, object, "plt", k, *f.slot, before);
		if (lib->taken[k]) {
			see(t, object, "address-in-code", k, lib->taken[k], before);
			see(t, object, "const-initializer", k, lib->constant[k], before);
			see(t, object, "initializer", k, lib->variable[k], before);
		}
	}
}

/* Opens DIR/FILE (FILE alone where dir is NULL; with dlmopen where lmid)
 * and sees the library it exports as symbol. */
static void see_opened(struct tally *t, const char *dir, const char *file, const char *symbol, int mode, int lmid,
		       int before)
{
	char path[4096];
	snprintf(path, sizeof path, "%s%s%s", dir ? dir : "", dir ? "/" : "", file);
	void *h = lmid ? dlmopen(LM_ID_BASE, path, mode) : dlopen(path, mode);
	const struct paths_lib *(*get)(void) = h ? (const struct paths_lib *(*)(void))dlsym(h, symbol) : NULL;
	if (!get) {
		printf("%s: %s\n", path, dlerror());
		t->astray++;
		return;
	}
	see_object(t, symbol, (const void *)get, get(), before);
}

static copy_fn *taken(int k)
{
	copy_fn *volatile f = k ? memmove : memcpy;
	return f;
}

static int program_work(void)
{
	char a[64] = "preload_paths", b[64];
	memcpy(b, a, sizeof a);
	memmove(b + 1, b, 16);
	return strcmp(b, "ppreload_paths") == 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: preload_paths EXPECT DIR [--runpath]\n");
		return 2;
	}
	struct tally t = {argv[1], 0, 0, 0, {NULL, NULL}};
	const char *dir = argv[2];
	int runpath = argc > 3 && strcmp(argv[3], "--runpath") == 0;
	struct paths_lib program = {{taken(0), taken(1)}, constant, variable, program_work};
	if (runpath) {
		see_opened(&t, NULL, "libpaths_rp.so", "paths_rp", RTLD_NOW, 0, 1);
		see_opened(&t, NULL, "$ORIGIN/libpaths_origin.so", "paths_origin", RTLD_NOW, 0, 1);
	}
	see_object(&t, "program", (const void *)main, &program, 0);
	see_object(&t, "paths_call", (const void *)paths_call, paths_call(), 0);
	see_object(&t, "paths_take", (const void *)paths_take, paths_take(), 0);
	see_opened(&t, dir, "libpaths_late_call.so", "paths_late_call", RTLD_LAZY, 0, 0);
	see_opened(&t, dir, "libpaths_late_take.so", "paths_late_take", RTLD_NOW, 0, 0);
	if (!runpath) /* by name from a program with a RUNPATH: the C library's dlopen, the next pass */
		see_opened(&t, NULL, "libpaths_named.so", "paths_named", RTLD_NOW, 0, 0);
	see_opened(&t, dir, "libpaths_base.so", "paths_base", RTLD_LAZY, 1, 0);
	if (runpath) {
		see_opened(&t, NULL, "libpaths_rp.so", "paths_rp", RTLD_NOW, 0, 0);
		see_opened(&t, NULL, "$ORIGIN/libpaths_origin.so", "paths_origin", RTLD_NOW, 0, 0);
	}
	printf("%d paths, %d astray; the address %s\n", t.paths, t.astray, t.not_one ? "not one" : "one");
	return t.astray || t.not_one;
}
