/* A shim for tests/preload.sh, preloaded after build/libuarchcopy.so: the
 * memmove the library's dlsym(RTLD_NEXT, "memmove") finds, so the C
 * library's memmove as libuarchcopy sees it. It counts its calls, passes
 * each on to the C library's, and says the count on exit. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static unsigned long calls;

void *memmove(void *dst, const void *src, size_t n)
{
	static void *(*next)(void *, const void *, size_t);
	if (!next)
		next = (void *(*)(void *, const void *, size_t))dlsym(RTLD_NEXT, "memmove");
	calls++;
	return next(dst, src, n);
}

__attribute__((destructor)) static void say(void)
{
	char line[64];
	int len = snprintf(line, sizeof line, "count_memmove: %lu calls\n", calls);
	if (write(2, line, (size_t)len) < 0)
		return;
}
