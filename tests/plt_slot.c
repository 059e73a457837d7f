/* Where this program's PLT slots of memcpy and memmove point, once it has
 * called each: "libc" (the C library's own), "stub" (the preloaded
 * library's memcpy, which jumps on through a pointer), "library"
 * (elsewhere in libuarchcopy: a routine it chose), or "other".
 * tests/preload.sh builds it with lazy binding and with -z now, and runs
 * it under the library (preload/rebind.c).
 * usage: plt_slot [--page]   (prints "memcpy WHERE memmove WHERE"; with
 *        --page, the permissions of the memcpy slot's page instead, as
 *        /proc/self/maps gives them: "r--p" where it is read-only) */
#define _GNU_SOURCE
#include "../bench/preloaded/plt_slot.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *where(const char *name)
{
	void **slot = plt_slot(name);
	if (!slot)
		return "none";
	void *to = *slot, *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	Dl_info info;
	if (libc && to == dlsym(libc, name))
		return "libc";
	if (to == dlsym(RTLD_DEFAULT, name))
		return "stub";
	if (dladdr(to, &info) && info.dli_fname && strstr(info.dli_fname, "libuarchcopy"))
		return "library";
	return "other";
}

/* The permissions of the mapping that holds address a: 0, or -1. */
static int print_page(uintptr_t a)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[512], perms[5];
	unsigned long lo, hi;
	while (maps && fgets(line, sizeof line, maps))
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && a >= lo && a < hi) {
			printf("%s\n", perms);
			fclose(maps);
			return 0;
		}
	if (maps)
		fclose(maps);
	return -1;
}

int main(int argc, char **argv)
{
	char a[64] = "plt_slot", b[64];
	/* Built with -fno-builtin: calls through the PLT, which bind a lazy
	 * slot. */
	memcpy(b, a, sizeof a);
	memmove(b + 1, b, 16);
	if (argc > 1 && strcmp(argv[1], "--page") == 0)
		return print_page((uintptr_t)plt_slot("memcpy")) ? 1 : 0;
	printf("memcpy %s memmove %s\n", where("memcpy"), where("memmove"));
	return 0;
}
