/* memmove's stand-ins for an overlap (derive/overlap.c), on forged
 * timings: the copy and the bound of least summed time where it beats the
 * C library's memmove and loses at no point up to that bound; the C
 * library's where nothing does; nothing where the run timed no C
 * library's memmove (the note says so), the flavor has no memmove, or the
 * table has no copy that goes one way; the
 * disjoint points of an older run; and the archive's lines read back. */
#include "test_derive.h"

#include "overlap.h"
#include "../common/util.h"

#include <stdlib.h>
#include <string.h>

static const unsigned int lengths[] = {OVERLAP_LENGTHS};
static const int deltas[] = {OVERLAP_DELTAS};

/* A time for s at every overlapping point of its way: ticks(n) ticks, the
 * C library's being 100 wherever it is added. */
static void add_way(struct overlap_timings *o, int s, double (*ticks)(unsigned int n))
{
	for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++)
		for (size_t j = 0; j < sizeof deltas / sizeof *deltas; j++)
			if ((unsigned int)abs(deltas[j]) < lengths[i] &&
			    (s == STRATEGY_LIBC || plan_may_stand_in(s, overlap_way(deltas[j]))))
				o->points[o->n++] = (struct overlap_point){s, lengths[i], deltas[j], {ticks(lengths[i])}};
}

static double libc_ticks(unsigned int n)
{
	(void)n;
	return 100;
}
/* Wins by a quarter to 16 KiB, loses beyond. */
static double short_win(unsigned int n)
{
	return n <= 16384 ? 75 : 130;
}
/* Wins by a tenth everywhere. */
static double tenth_win(unsigned int n)
{
	(void)n;
	return 90;
}
/* Within the noise everywhere. */
static double tie(unsigned int n)
{
	(void)n;
	return 102;
}
/* Wins by half but at the first length, where it loses. */
static double first_loss(unsigned int n)
{
	return n == 64 ? 120 : 50;
}

/* Two bands: 0..63 small (every load first), 64.. forward (up). */
static void forward_rule(struct derived_rule *r)
{
	memset(r, 0, sizeof *r);
	r->zero_mod = 4096, r->noise = 0.03, r->n_bands = 2;
	r->bands[0] = (struct band){0, 63, {SMALL, SMALL, SMALL, SMALL, SMALL}};
	r->bands[1] = (struct band){64, BAND_UNBOUNDED, {F, F, F, F, F}};
}

static void timed(struct timings *t, int libc)
{
	memset(t, 0, sizeof *t);
	timings_add(t, (struct row){F, 64, 0, 0, 10, 0});
	if (libc)
		timings_add(t, (struct row){STRATEGY_LIBC, 64, 0, 0, 10, 0});
}

static void chosen(void)
{
	about("overlap: the stand-in chosen");
	struct overlap_timings o = {xmalloc(4096 * sizeof *o.points), 0, 1};
	add_way(&o, STRATEGY_LIBC, libc_ticks);
	add_way(&o, STRATEGY_AVX2_DOWN, short_win);
	add_way(&o, STRATEGY_AVX512_DOWN, tenth_win);
	add_way(&o, STRATEGY_AVX2_FORWARD, tie);
	add_way(&o, STRATEGY_AVX512_FORWARD, first_loss);
	struct timings t;
	timed(&t, 1);
	struct derived_rule r;
	forward_rule(&r);
	overlap_stand_ins(&o, &t, 1, &r);
	/* 20 points at 0.75 (the destination above, to 16 KiB) sum less than 43 at 0.9. */
	check(r.stand_in[DIR_DOWN] == STRATEGY_AVX2_DOWN + 1 && r.stand_in_max[DIR_DOWN] == 16384,
	      "down: %s to %u, not avx2_down to 16384, the least summed time",
	      r.stand_in[DIR_DOWN] ? strategy_name[r.stand_in[DIR_DOWN] - 1] : "none", r.stand_in_max[DIR_DOWN]);
	check(r.stand_in[DIR_UP] == STRATEGY_LIBC + 1 && r.stand_in_max[DIR_UP] == 0,
	      "up: %s, not libc: a tie is no win and a loss at 64 bytes bars every bound past it",
	      r.stand_in[DIR_UP] ? strategy_name[r.stand_in[DIR_UP] - 1] : "none");
	check(strstr(r.note, "avx2_down from 64 bytes to 16384") != NULL, "the note does not say the bound");

	/* Without the copy that lost beyond 16 KiB, the one that wins everywhere, unbounded. */
	o.n = 0;
	add_way(&o, STRATEGY_LIBC, libc_ticks);
	add_way(&o, STRATEGY_AVX512_DOWN, tenth_win);
	forward_rule(&r);
	overlap_stand_ins(&o, &t, 1, &r);
	check(r.stand_in[DIR_DOWN] == STRATEGY_AVX512_DOWN + 1 && r.stand_in_max[DIR_DOWN] == 0,
	      "down: not avx512_down for any length where it wins at every point");

	/* A copy that goes one way only from 1 KiB: avx512_down (from 64) may stand in, the points below are not counted. */
	forward_rule(&r);
	r.bands[1].hi = 1023;
	r.bands[2] = (struct band){1024, BAND_UNBOUNDED, {F, F, F, F, F}}, r.n_bands = 3;
	for (int c = 0; c < N_DISTANCE_CLASSES; c++)
		r.bands[1].strategy[c] = STRATEGY_AVX512_MEDIUM;
	overlap_stand_ins(&o, &t, 1, &r);
	check(strstr(r.note, "from 1024 bytes") != NULL, "the points are not counted from the first copy that goes one way");

	/* No C library's memmove timed: nothing. */
	timings_free(&t);
	timed(&t, 0);
	forward_rule(&r);
	overlap_stand_ins(&o, &t, 1, &r);
	check(!r.stand_in[DIR_UP] && !r.stand_in[DIR_DOWN], "a stand-in without the C library's memmove timed");
	check(strstr(r.note, "timed no C library's memmove") != NULL, "the note does not say no C library's memmove was timed");
	forward_rule(&r);
	overlap_stand_ins(&o, &t, 0, &r);
	check(!r.stand_in[DIR_UP] && !r.stand_in[DIR_DOWN] && !strstr(r.note, "memmove"),
	      "a flavor without a memmove is told of memmove's overlaps");
	timings_free(&t);

	/* A table that copies forward everywhere ships as the baseline. */
	timed(&t, 1);
	forward_rule(&r);
	r.bands[0] = (struct band){0, BAND_UNBOUNDED, {F, F, F, F, F}}, r.n_bands = 1;
	overlap_stand_ins(&o, &t, 1, &r);
	check(!r.stand_in[DIR_UP] && !r.stand_in[DIR_DOWN], "a stand-in for a table that copies forward everywhere");
	timings_free(&t);
	free(o.points);
}

static void disjoint(void)
{
	about("overlap: a run that timed no overlapping copy");
	struct timings t = {0};
	for (unsigned int n = 64; n <= 65536; n *= 4) {
		timings_add(&t, (struct row){STRATEGY_LIBC, n, 1, 1, 100, 0});
		timings_add(&t, (struct row){STRATEGY_AVX2_DOWN, n, 1, 1, 70, 0});
		timings_add(&t, (struct row){STRATEGY_AVX2_FORWARD, n, 1, 1, n > 4096 ? 120 : 70, 0});
	}
	struct derived_rule r;
	forward_rule(&r);
	overlap_stand_ins(NULL, &t, 1, &r);
	check(r.stand_in[DIR_DOWN] == STRATEGY_AVX2_DOWN + 1 && r.stand_in_max[DIR_DOWN] == 0 &&
		      r.stand_in[DIR_UP] == STRATEGY_AVX2_FORWARD + 1 && r.stand_in_max[DIR_UP] == 4096,
	      "on the disjoint points: down %d to %u, up %d to %u", r.stand_in[DIR_DOWN] - 1, r.stand_in_max[DIR_DOWN],
	      r.stand_in[DIR_UP] - 1, r.stand_in_max[DIR_UP]);
	check(strstr(r.note, "timed no overlapping copy") != NULL, "the note does not say the points were disjoint");
	timings_free(&t);
}

static void lines(void)
{
	about("overlap: the archive's lines");
	struct overlap_timings o = {xmalloc(4 * sizeof *o.points), 2, 2};
	o.points[0] = (struct overlap_point){STRATEGY_AVX2_DOWN, 4096, 3, {70.5, 71}};
	o.points[1] = (struct overlap_point){STRATEGY_LIBC, 4096, -64, {80, 79.25}};
	struct buf b = {0};
	overlap_text(&b, &o);
	char why[320], *save = NULL, *line = strtok_r(b.data, "\n", &save);
	struct overlap_timings back = {0};
	check(overlap_count_parse(line, &back, why, sizeof why) == 0 && back.n == 2 && back.passes == 2,
	      "the count line does not read back");
	for (size_t i = 0; i < back.n; i++) {
		line = strtok_r(NULL, "\n", &save);
		check(line && overlap_point_parse(line, back.passes, &back.points[i], why, sizeof why) == 0 &&
			      memcmp(&back.points[i], &o.points[i], sizeof o.points[i]) == 0,
		      "point %zu does not read back", i);
	}
	static const char *const bad[] = {
		"overlap avx2_forward 4096 3 70 71",  /* goes up, for a destination above */
		"overlap avx2_down 64 64 70 71",      /* no overlap */
		"overlap avx2_nt 4096 -3 70 71",      /* streams */
		"overlap avx2_down 4096 3 70",        /* one pass of two */
		"overlap avx2_down 4096 3 70 71 72",  /* three */
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct overlap_point p;
		check(overlap_point_parse(bad[i], 2, &p, why, sizeof why) != 0, "'%s' is read", bad[i]);
	}
	back.points[1] = back.points[0];
	check(overlap_points_distinct(&back, why, sizeof why) != 0, "a point twice is read");
	overlap_timings_free(&back);
	free(o.points);
	buf_free(&b);
}

void derive_overlap(void)
{
	chosen();
	disjoint();
	lines();
}
