/* Derives a core's rule from its measurements. Pure: no timing, no I/O, so
 * it is tested on recorded tables. */
#ifndef PROBE_DERIVE_H
#define PROBE_DERIVE_H

#include "table.h"

/* The descending copy must beat the forward one by this fraction to count
 * as a win, and a destination alignment must save this fraction to count. */
#define DERIVE_MARGIN 0.25

struct derived_rule {
	int window;    /* 0..4096 */
	int align_dst; /* 0, 8, 16, 32 or 64 */
	/* The first run of distances >= 1 where the descending copy wins at
	 * every length; 0, 0 when there is none. */
	unsigned int run_first, run_last;
	double align_gain; /* misaligned median over worst aligned, at align_dst */
	char note[320];    /* the derivation in a sentence or two */
};

/* Nonzero, with note saying why, when the table lacks what the derivation needs. */
int derive_rule(const struct table *t, double margin, struct derived_rule *out);

#endif
