/* What a library of tests/preload_paths_lib.c shows tests/preload_paths.c:
 * memcpy and memmove as its code takes their address, and as its static
 * initializers hold them (NULL where it was built to call them only,
 * through its PLT), and a function that copies with both. */
#ifndef TESTS_PRELOAD_PATHS_H
#define TESTS_PRELOAD_PATHS_H

#include <stddef.h>

typedef void *copy_fn(void *dst, const void *src, size_t n);

struct paths_lib {
	copy_fn *taken[2];	 /* memcpy, memmove: through the GOT */
	copy_fn *const *constant; /* a const table: in PT_GNU_RELRO */
	copy_fn **variable;	 /* a table in writable data */
	int (*work)(void);	 /* 1 where its copies were right */
};

#endif
