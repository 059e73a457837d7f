/* The sizes of memcpy calls in SPEC CPU2017, as glibc's
 * benchtests/bench-memcpy-random.c publishes them: 184 sizes of 0..4095
 * bytes, each with its count in 65536 calls. build/preloaded-stream draws
 * its long random stream from it, whole or restricted to a range of
 * sizes. (common/size_profile.c holds the older SPEC CPU2006 table of
 * calls under 256 bytes, which the probe and the trees use; it has no
 * call over 240 bytes to draw a range of 513..4095 from.) */
#ifndef BENCH_SIZE_TABLE_H
#define BENCH_SIZE_TABLE_H

#include <stdint.h>

enum { SIZE_TABLE_ENTRIES = 184, SIZE_TABLE_CALLS = 65536 };

/* The table restricted to lo..hi bytes, ready to draw from: the sizes in
 * that range, ascending, and the running sum of their counts. */
struct size_draw {
	unsigned int n;
	uint32_t total;
	uint16_t size[SIZE_TABLE_ENTRIES];
	uint32_t upto[SIZE_TABLE_ENTRIES]; /* the counts of size[0..i] */
};

/* Fills d with the table's sizes lo..hi; their share of the table's
 * calls, 0 where the range holds none. */
double size_draw_init(struct size_draw *d, unsigned int lo, unsigned int hi);

/* A size drawn by its count, from r, a uniform 64-bit number. */
unsigned int size_draw(const struct size_draw *d, uint64_t r);

#endif
