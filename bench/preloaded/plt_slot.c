/* Where this program's calls of memcpy and memmove land (plt_slot.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "plt_slot.h"

#include "../../common/jump_slot.h"

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
	return jump_slot(_DYNAMIC, load_address(), name);
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

/* memcpy and memmove as a program calls them: through its PLT. */
__attribute__((naked)) static void *plt_memcpy(void *dst, const void *src, size_t n)
{
	(void)dst, (void)src, (void)n;
	__asm__("jmp memcpy@PLT");
}

__attribute__((naked)) static void *plt_memmove(void *dst, const void *src, size_t n)
{
	(void)dst, (void)src, (void)n;
	__asm__("jmp memmove@PLT");
}

copy_fn reach(const struct through_plt *c)
{
	*c->slot = (void *)c->to;
	return c->entry;
}

int plt_copies(const char *program, struct plt_copies *out)
{
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	copy_fn theirs = libc ? (copy_fn)dlsym(libc, "memcpy") : NULL;
	out->entry = dlsym(RTLD_DEFAULT, "memmove");
	if (!theirs || !out->entry || strcmp(object_of(out->entry), object_of((void *)theirs)) == 0) {
		fprintf(stderr, "%s: memcpy is the C library's: run it with LD_PRELOAD=build/libuarchcopy.so\n", program);
		return 2;
	}
	char a[64] = {0}, b[64];
	plt_memcpy(b, a, sizeof a);
	plt_memmove(b, a, sizeof a);
	void **copy = plt_slot("memcpy"), **move = plt_slot("memmove");
	if (!copy || !move || plt_slot_writable(copy) || plt_slot_writable(move)) {
		fprintf(stderr, "%s: no PLT slot of memcpy or memmove to time them through\n", program);
		return 1;
	}
	out->ours_memcpy = (struct through_plt){copy, plt_memcpy, (copy_fn)*copy};
	out->libc_memcpy = (struct through_plt){copy, plt_memcpy, theirs};
	out->ours_memmove = (struct through_plt){move, plt_memmove, (copy_fn)*move};
	out->libc_memmove = (struct through_plt){move, plt_memmove, (copy_fn)dlsym(libc, "memmove")};
	return out->libc_memmove.to ? 0 : 1;
}

const char *object_of(const void *addr)
{
	Dl_info info;
	if (!dladdr(addr, &info) || !info.dli_fname)
		return "(no object)";
	const char *slash = strrchr(info.dli_fname, '/');
	return slash ? slash + 1 : info.dli_fname;
}

const void *first_jump(const unsigned char *p)
{
	static const unsigned char endbr64[4] = {0xf3, 0x0f, 0x1e, 0xfa};
	if (memcmp(p, endbr64, 4) == 0)
		p += 4;
	int32_t rel;
	if (p[0] == 0xe9) {
		memcpy(&rel, p + 1, 4);
		return p + 5 + rel;
	}
	if (p[0] == 0xff && p[1] == 0x25) {
		void *target;
		memcpy(&rel, p + 2, 4);
		memcpy(&target, p + 6 + rel, sizeof target);
		return target;
	}
	return p;
}
