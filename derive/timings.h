/* The probe's measurements: one row per strategy, length, distance and
 * misalignment, as the evidence CSV and the measurement table hold them. */
#ifndef DERIVE_TIMINGS_H
#define DERIVE_TIMINGS_H

#include "../common/rule_limits.h"

#include <stddef.h>

/* The catalogue's names, by code (common/strategies.h); its records say
 * what a strategy copies (strategy_serves) and whether it streams. */
extern const char *const strategy_name[N_COPY_STRATEGIES];

struct row {
	int strategy; /* enum copy_strategy */
	unsigned int length, distance, misalign;
	double ticks;  /* per copy, loop overhead subtracted */
	double spread; /* (second lowest - lowest) / lowest of the passes' minima */
};

/* Rows of one strategy, length and distance: the first and the last, as
 * 1 + their index; first 0 is an empty slot. */
struct timings_slot {
	size_t first, last;
};

/* Rows enter only through timings_add, which indexes them by strategy,
 * length and distance: timings_find is asked about every point of a table
 * tens of thousands of points long, and a scan per question is quadratic. */
struct timings {
	struct row *rows;
	size_t n, cap;
	struct timings_slot *slots; /* open addressing, n_slots (a power of two) at least 2 n */
	size_t n_slots;
	size_t *next;             /* per row: 1 + the index of the next row of its key, 0 none */
};

void timings_add(struct timings *t, struct row r);
void timings_free(struct timings *t);

/* Matches any misalignment in timings_find: rows are keyed by distance, their
 * misalignment follows from it. */
#define ANY_MISALIGN 0xffffffffu

/* The row for these keys, or NULL; of several, the first added. */
const struct row *timings_find(const struct timings *t, int strategy, unsigned int length, unsigned int distance,
			     unsigned int misalign);

/* The copy t's run is judged against, which a cell that loses everywhere
 * else takes: strategy libc where the run timed it (the drop-in library's
 * flavor, whose baseline is the C library's memmove), else the baseline,
 * every copy forward. */
int timings_reference(const struct timings *t);

/* Reads a CSV with the header "strategy,length,distance,misalign,ticks,spread"
 * (the derivation's fixtures). Nonzero, after printing file:line and the
 * problem, on bad input. */
int timings_read_csv(struct timings *t, const char *path);

#endif
