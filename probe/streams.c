/* The workload's streams and their timing (streams.h). */
#include "streams.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { CALLS = WORKLOAD_CALLS, REGION = WORKLOAD_REGION, ROUNDS = 15 };

struct streams *streams_new(void)
{
	struct streams *s = malloc(sizeof *s);
	unsigned char *arena = mmap(NULL, 2 * REGION + 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!s || arena == MAP_FAILED) {
		fprintf(stderr, "probe: out of memory for the workload\n");
		exit(1);
	}
	memset(arena, 0x5a, 2 * REGION + 8192);
	s->src = arena;
	s->dst = arena + REGION + 4096 + 2048; /* off the source's page offsets */
	random_calls(s->calls[0], CALLS, REGION, 1);
	memcpy(s->calls[1], s->calls[0], sizeof s->calls[0]);
	sort_calls(s->calls[1], CALLS);
	return s;
}

void streams_free(struct streams *s)
{
	munmap(s->src, 2 * REGION + 8192);
	free(s);
}

void time_copies(struct streams *s, const copy_fn *copies, int n, struct workload_ticks *out)
{
	for (int i = 0; i < n; i++)
		out[i].random = out[i].sorted = HUGE_VAL;
	for (int round = 0; round < ROUNDS; round++)
		for (int i = 0; i < n; i++)
			for (int o = 0; o < 2; o++) {
				double t = time_calls(copies[i], s->dst, s->src, s->calls[o], CALLS) / CALLS;
				double *keep = o ? &out[i].sorted : &out[i].random;
				*keep = fmin(*keep, t);
			}
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v)
{
	qsort(v, PAIRED_ROUNDS, sizeof *v, by_value);
	return v[PAIRED_ROUNDS / 2];
}

struct workload_ticks paired_medians(struct streams *s, copy_fn a, copy_fn b, struct workload_ticks times[2])
{
	double ratio[2][PAIRED_ROUNDS], ticks[2][2][PAIRED_ROUNDS];
	for (int round = 0; round < PAIRED_ROUNDS; round++)
		for (int o = 0; o < 2; o++) {
			/* Each first in turn, so that neither always follows the
			 * other's traces in the caches and predictors. */
			double ta, tb;
			if (round % 2) {
				tb = time_calls(b, s->dst, s->src, s->calls[o], CALLS);
				ta = time_calls(a, s->dst, s->src, s->calls[o], CALLS);
			} else {
				ta = time_calls(a, s->dst, s->src, s->calls[o], CALLS);
				tb = time_calls(b, s->dst, s->src, s->calls[o], CALLS);
			}
			ratio[o][round] = tb / ta;
			ticks[0][o][round] = ta / CALLS, ticks[1][o][round] = tb / CALLS;
		}
	for (int c = 0; times && c < 2; c++)
		times[c] = (struct workload_ticks){median(ticks[c][0]), median(ticks[c][1])};
	return (struct workload_ticks){median(ratio[0]), median(ratio[1])};
}
