/* The rule compiled for one core (uarchgen gen --target, prefix uct_),
 * linked into the benchmark beside the installed table, so that the two
 * are timed in one process. */
#ifndef BENCH_TARGET_H
#define BENCH_TARGET_H

#include "../common/timer.h"

#include <stddef.h>

struct target {
	const char *entry; /* the entry the table was compiled for ("zen3") */
	copy_fn memcpy;    /* its memcpy, called as the benchmark calls uc_memcpy */
	/* The strategy code it takes for these arguments. */
	int (*strategy)(const void *dst, const void *src, size_t n);
	/* The generated routine of a strategy code, called directly. */
	copy_fn (*routine)(int code);
};

/* The compiled rule, ready to copy; NULL where the benchmark was built
 * without one: no entry holds this CPU, or the flavor has vector strategies
 * and so keeps the installed table under --target. */
const struct target *target(void);

#endif
