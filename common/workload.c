#include "workload.h"

#include "size_profile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The alignments of source and destination per 256 calls, from the same
 * benchmark as the sizes (size_profile.h). */
static const struct size_freq src_aligns[] = {{16, 144}, {8, 86}, {3, 23}, {1, 3}},
			      dst_aligns[] = {{16, 197}, {8, 30}, {3, 23}, {1, 6}};

/* A value drawn by frequency: r in [0, total). */
static unsigned int draw(const struct size_freq *t, size_t n, unsigned int r)
{
	for (size_t i = 0; i < n; i++) {
		if (r < t[i].freq)
			return t[i].value;
		r -= t[i].freq;
	}
	return t[n - 1].value;
}

void random_calls(struct call *calls, size_t n, size_t region, unsigned int seed)
{
	srand(seed);
	for (size_t i = 0; i < n; i++) {
		unsigned int len = draw(size_profile, n_size_profile, (unsigned int)rand() % 1024);
		unsigned int sa = draw(src_aligns, 4, (unsigned int)rand() % 256);
		unsigned int da = draw(dst_aligns, 4, (unsigned int)rand() % 256);
		/* Offsets anywhere in the region, rounded down to the drawn
		 * alignment (1: any byte). */
		size_t room = region - 256;
		calls[i].src = ((size_t)rand() % room) / sa * sa;
		calls[i].dst = ((size_t)rand() % room) / da * da;
		calls[i].len = len;
	}
}

unsigned int workload_longest(void)
{
	unsigned int longest = 0;
	for (size_t i = 0; i < n_size_profile; i++)
		longest = size_profile[i].value > longest ? size_profile[i].value : longest;
	return longest;
}

void sort_calls(struct call *calls, size_t n)
{
	/* A counting sort by length: stable, so equal lengths keep the
	 * stream's order (qsort is not). */
	unsigned int longest = 0;
	for (size_t i = 0; i < n; i++)
		longest = calls[i].len > longest ? calls[i].len : longest;
	size_t *start = calloc((size_t)longest + 2, sizeof *start);
	struct call *sorted = malloc(n * sizeof *sorted);
	if (!start || !sorted) {
		fprintf(stderr, "workload: out of memory sorting %zu calls\n", n);
		exit(1);
	}
	for (size_t i = 0; i < n; i++)
		start[calls[i].len + 1]++;
	for (unsigned int l = 1; l <= longest + 1; l++)
		start[l] += start[l - 1];
	for (size_t i = 0; i < n; i++)
		sorted[start[calls[i].len]++] = calls[i];
	memcpy(calls, sorted, n * sizeof *sorted);
	free(sorted);
	free(start);
}

double time_calls(copy_fn fn, unsigned char *dst, const unsigned char *src, const struct call *calls, size_t n)
{
	uint64_t t0 = tsc();
	for (size_t i = 0; i < n; i++)
		fn(dst + calls[i].dst, src + calls[i].src, calls[i].len);
	uint64_t t1 = tsc();
	return (double)(t1 - t0);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double workload_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, by_value);
	return v[n / 2];
}

struct paired time_paired(copy_fn a, copy_fn b, unsigned char *dst, const unsigned char *src,
			  const struct call *const streams[2], size_t n, int rounds)
{
	double ratio[2][WORKLOAD_PAIRED_ROUNDS], ticks[2][2][WORKLOAD_PAIRED_ROUNDS];
	if (rounds < 1 || rounds > WORKLOAD_PAIRED_ROUNDS)
		rounds = WORKLOAD_PAIRED_ROUNDS;
	for (int round = 0; round < rounds; round++)
		for (int o = 0; o < 2; o++) {
			/* Each first in turn, so that neither always follows the
			 * other's traces in the caches and predictors. */
			double ta, tb;
			if (round % 2) {
				tb = time_calls(b, dst, src, streams[o], n);
				ta = time_calls(a, dst, src, streams[o], n);
			} else {
				ta = time_calls(a, dst, src, streams[o], n);
				tb = time_calls(b, dst, src, streams[o], n);
			}
			ratio[o][round] = tb / ta;
			ticks[0][o][round] = ta / (double)n, ticks[1][o][round] = tb / (double)n;
		}
	struct paired p;
	for (int o = 0; o < 2; o++) {
		p.ratio[o] = workload_median(ratio[o], rounds);
		for (int c = 0; c < 2; c++)
			p.ticks[c][o] = workload_median(ticks[c][o], rounds);
	}
	return p;
}
