/* The static library's memcpy and memmove as IFUNC symbols: the routine
 * the program's start binds them to, chosen once (preload/resolve.c). */
#ifndef PRELOAD_RESOLVE_H
#define PRELOAD_RESOLVE_H

#include <stddef.h>

typedef void *copy_fn(void *dst, const void *src, size_t n);

/* What the resolver chose, for the constructor's report: ran is 0 until
 * it has run; set is the routine set (0: none compiled for this core, the
 * baseline entry); environment is 0 where /proc/self/environ could not be
 * read; forced and isa_cap are what it read there (isa_cap 2 when
 * unset). */
struct resolution {
	int ran, environment, forced, isa_cap;
	unsigned int set;
};
extern struct resolution resolved;

/* The routine memcpy and memmove resolve to; the first call reads the
 * environment, CPUID and XGETBV, the later ones return the same. */
copy_fn *resolve_copy(void);

void *memmove(void *dst, const void *src, size_t n);

#endif
