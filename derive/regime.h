/* The regime check: points a run timed faster at a longer length. A copy
 * of more bytes moves every byte the shorter one does, and more, so it
 * takes no less time; where a run says otherwise, the harness timed the
 * two lengths differently, and the shorter point is to be timed again.
 * So it is where a harness times a copy below 4 KiB rotating over 16
 * lanes, whose buffers outgrow the L1 cache at 2 to 3 KiB, and from 4 KiB
 * over 4, which it holds: a vector copy then takes far less time at 4096
 * bytes than at 3072 (measured: see
 * docs/notebook/comment-figures-2026-12.md#lanes-that-outgrow-the-l1-cache).
 * The check reads a run's table of least times over the passes, what the
 * derivation reads, and changes nothing in it. */
#ifndef DERIVE_REGIME_H
#define DERIVE_REGIME_H

#include "derive.h"
#include "timings.h"

#include <stddef.h>

/* A point is flagged where the next longer length took less than this
 * fraction of its time: more bytes take no less time, and a 15% drop lies
 * well above what the derivation calls a run's noise, the median spread
 * between passes of the points of 100 ticks or more, and above the wider
 * spread of points of a few ticks, which jitter by a tick (measured: see
 * docs/notebook/comment-figures-2026-12.md#the-regime-checks-drop). */
#define REGIME_DROP 0.85

/* One flagged point: strategy at length, distance d, against the same
 * strategy at the same d at next, the run's next longer measured length. */
struct regime_flag {
	int strategy;
	unsigned int length, next, distance;
	double ticks, next_ticks; /* each point's least time over the passes */
	size_t compared;          /* distances at which both lengths were timed, for this strategy */
};

struct regime_check {
	struct regime_flag *flags; /* by strategy, length, distance */
	size_t n;
	size_t compared; /* pairs of points compared, over every strategy judged */
};

/* Whether the check judges strategy code: a copy whose time must grow
 * with its length (regime.c says which, from the catalogue). */
int regime_judged(int code);

/* Every point of t that the check flags, into *out (regime_free). */
void regime_run(const struct timings *t, struct regime_check *out);

void regime_free(struct regime_check *c);

/* The points that decide cells: every row of t but those at a length and
 * distance where c flags any copy, into *out (timings_free). A flagged
 * point was timed in another regime than its neighbours, so no copy's time
 * there is compared with another's: its cell takes what the points left
 * support. Returns how many points (length and distance) were left out. */
size_t regime_exclude(const struct timings *t, const struct regime_check *c, struct timings *out);

/* The table a run's cells are decided on, into *out (timings_free): t
 * less the points the regime check flags where exclude is set (a probe
 * that derived so, archive.h's ARTIFACTS_EXCLUDED_VERSION), else all of
 * t. Returns how many points were left out. */
size_t regime_deciding(const struct timings *t, int exclude, struct timings *out);

/* Puts before r's note how many points decided no cell, where any, so
 * that the note still ends as the derivation and the stand-ins end it. */
void regime_say_excluded(struct derived_rule *r, size_t left_out);

/* The flags of one strategy and length: flags[first .. first + n), and the
 * one whose next length took the least fraction of its time. */
struct regime_group {
	size_t first, n, worst;
};

/* c's groups (malloc'd, *out; their count returned), those flagged at the
 * most distances first: the harness's mistakes hold at every distance a
 * length was timed at, a jitter at one or two. */
size_t regime_groups(const struct regime_check *c, struct regime_group **out);

/* One group in a line, no newline, its worst drop as the example:
 * "avx512_forward, 3072 bytes: 71 of 71 distances, down to 0.378 of the
 * time at 4096 (d = 3968: 124.88 ticks, 47.25)". */
void regime_group_text(const struct regime_check *c, const struct regime_group *g, char *out, size_t size);

#endif
