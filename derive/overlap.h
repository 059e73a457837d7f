/* memmove's copy where the ranges overlap. A compiled tree reaches a copy
 * by length and distance mod 4 KiB; where that copy goes one way and the
 * ranges overlap, memmove's guard in front of it sends the call to a copy
 * that goes the way the overlap needs, the stand-in: one per way for the
 * whole table, since the guard sits before a copy's body, which every band
 * of that copy shares, and a stand-in per length would cost every
 * overlapping call more compares. The probe times each copy that may
 * stand in (plan_may_stand_in) at overlapping points; the derivation
 * takes, for each way, the fastest of them over the lengths the table's
 * one-way copies serve, under do-no-harm against the C library's memmove.
 * Pure: the probe times, the import replays. */
#ifndef DERIVE_OVERLAP_H
#define DERIVE_OVERLAP_H

#include "derive.h"
#include "points.h"

#include "../common/util.h"

/* The overlapping points: lengths from 64 bytes to past the L2, and the
 * destination 1..63, 64, 4 KiB and 64 KiB above the source (delta > 0:
 * the copy must go down) or as far below (delta < 0: up), where |delta| <
 * length. make bench's overlap table times the library at these. */
#define OVERLAP_LENGTHS 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304
#define OVERLAP_DELTAS 1, 3, 63, 64, 4096, 65536, -1, -3, -64, -4096, -65536
#define OVERLAP_MAX_POINTS 4096
/* Passes over the points: a point's time is its least. */
#define OVERLAP_PASSES 3

struct overlap_point {
	int strategy;
	unsigned int length;
	int delta; /* dst - src */
	double pass_min[MAX_PASSES];
};

struct overlap_timings {
	struct overlap_point *points;
	size_t n;
	int passes;
};

/* The way a copy at delta must go: DIR_DOWN where the destination lies
 * above the source, DIR_UP below. */
int overlap_way(int delta);

/* Sets r->stand_in from o (the run's overlapping points), or, where o
 * holds none (a probe before version 27), from t's disjoint points, with a
 * sentence on each way added to r->note. Only against the C library's
 * memmove (strategy libc, the user flavor's reference), timed in the same
 * run: for each way, where a copy of r goes one way, of the copies that
 * may stand in and serve from the shortest length such a copy of r
 * serves, the one of least mean log time over the reference's at its
 * points of that way from that length, where it beats the reference
 * beyond r->noise on that mean and loses to it beyond the noise at none;
 * else the reference. Nothing where the run's flavor has no memmove
 * (moves 0), r has no copy that goes one way, or r copies forward
 * everywhere (it ships as the baseline, with no guard); nothing either,
 * but a sentence saying so, where the run timed no C library's memmove:
 * no copy can be shown not to lose to it. */
void overlap_stand_ins(const struct overlap_timings *o, const struct timings *t, int moves, struct derived_rule *r);

/* The archive's lines (version 27): "overlaps N PASSES", then per point
 * "overlap STRATEGY LENGTH DELTA T1 .. Tpasses". */
void overlap_text(struct buf *b, const struct overlap_timings *o);
int overlap_count_parse(const char *line, struct overlap_timings *o, char *why, size_t why_size);
int overlap_point_parse(const char *line, int passes, struct overlap_point *p, char *why, size_t why_size);
/* No point twice. */
int overlap_points_distinct(const struct overlap_timings *o, char *why, size_t why_size);

/* A point's time: its least pass minimum. */
double overlap_ticks(const struct overlap_point *p, int passes);

void overlap_timings_free(struct overlap_timings *o);

#endif
