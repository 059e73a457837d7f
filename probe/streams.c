/* The workload's streams and their timing (streams.h). */
#include "streams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { CALLS = WORKLOAD_CALLS, REGION = WORKLOAD_REGION };
_Static_assert((int)PAIRED_ROUNDS <= (int)WORKLOAD_PAIRED_ROUNDS, "time_paired times at most WORKLOAD_PAIRED_ROUNDS rounds");

static size_t stream_calls = CALLS;

void streams_quick(void)
{
	stream_calls = 4096;
}

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
	s->n = stream_calls;
	random_calls(s->calls[0], s->n, REGION, 1);
	memcpy(s->calls[1], s->calls[0], s->n * sizeof s->calls[0][0]);
	sort_calls(s->calls[1], s->n);
	return s;
}

void streams_free(struct streams *s)
{
	munmap(s->src, 2 * REGION + 8192);
	free(s);
}

/* b over a, and each one's median ticks a call in times[0] (a) and
 * times[1] (b). */
static struct workload_ticks paired_medians(struct streams *s, copy_fn a, copy_fn b, struct workload_ticks times[2])
{
	const struct call *const streams[2] = {s->calls[0], s->calls[1]};
	struct paired p = time_paired(a, b, s->dst, s->src, streams, s->n, PAIRED_ROUNDS);
	for (int c = 0; times && c < 2; c++)
		times[c] = (struct workload_ticks){p.ticks[c][0], p.ticks[c][1]};
	return (struct workload_ticks){p.ratio[0], p.ratio[1]};
}

void time_against(struct streams *s, copy_fn reference, const copy_fn *copies, int n, struct workload_ticks *out,
		  struct workload_ticks *reference_out)
{
	struct workload_ticks reference_mean = {0, 0}, times[2];
	for (int i = 0; i < n; i++) {
		out[i] = paired_medians(s, reference, copies[i], times);
		reference_mean.random += times[0].random / n, reference_mean.sorted += times[0].sorted / n;
	}
	for (int i = 0; i < n; i++)
		out[i].random *= reference_mean.random, out[i].sorted *= reference_mean.sorted;
	if (reference_out)
		*reference_out = reference_mean;
}

