/* The ring 0 test of every strategy this CPU runs, forced in turn. */
#ifndef TEST_KERNEL_STRATEGIES_H
#define TEST_KERNEL_STRATEGIES_H

#include "vendor/copy_rule.h"

/* Sweeps each strategy over arena (arena_size bytes), reports a line per
 * strategy through put, and counts each strategy once in passed or failed.
 * Returns the number of strategies run. Leaves a forced table installed. */
/* kmain.c's text poke, which patches the entries to each forced table. */
void kernel_poke(void *addr, const void *bytes, uc_size_t len);

int strategies_run(unsigned char *arena, uc_size_t arena_size, void (*put)(const char *), unsigned long *passed,
		   unsigned long *failed);

#endif
