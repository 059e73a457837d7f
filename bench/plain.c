/* The probe's timer against a plain loop (plain.h). */
#include "plain.h"

#include "copy_rule.h"
#include "report.h"
#include "routines.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* 1 to 8 KiB: where time_copy cuts its lane count from its most to its
 * fewest. */
static const size_t lengths[] = {1024, 2048, 3072, 4096, 6144, 8192};
#define LENGTHS (sizeof lengths / sizeof *lengths)

/* (dst - src) mod 4096 for both timers: the destination's low 12 bits over
 * 1.9 KiB from the source's either way, so that no load of these lengths
 * meets the low bits of a store in flight just behind it (4K aliasing),
 * and both buffers line-aligned. */
#define PLAIN_D (2048u + 64u)
/* The plain loop's buffers, far apart: the source at the start of one
 * mapping, the destination PLAIN_APART + PLAIN_D bytes on. */
#define PLAIN_APART (2u * 1048576u)
#define PLAIN_SPAN (2u * PLAIN_APART)

/* Each time is its least over this many rounds. A round times every
 * point once, the two timers in turns, so that a point's rounds are spread
 * over the whole section and a slow spell of the machine lands on a few
 * rounds of each point, not on all rounds of one. */
enum { PLAIN_ROUNDS = 101 };
/* Ticks a sample holds, the grid's. */
enum { PLAIN_TICKS = 3000 };

struct plain_copy {
	const char *name;
	copy_fn fn;
};

/* rep movsb, the C library's memcpy, and the flavor's forward vector
 * copies this CPU and its OS enable; how many, into out (room for 4). */
static int plain_copies(struct plain_copy *out)
{
	int k = 0;
	out[k++] = (struct plain_copy){"rep movsb", rep_movsb};
	out[k++] = (struct plain_copy){"libc memcpy", libc_copy};
#ifdef UC_STRATEGY_AVX2_FORWARD
	if (strategy_timed(UC_STRATEGY_AVX2_FORWARD, lengths[0]))
		out[k++] = (struct plain_copy){"avx2_forward", strategy_routine(UC_STRATEGY_AVX2_FORWARD)};
#endif
#ifdef UC_STRATEGY_AVX512_FORWARD
	if (strategy_timed(UC_STRATEGY_AVX512_FORWARD, lengths[0]))
		out[k++] = (struct plain_copy){"avx512_forward", strategy_routine(UC_STRATEGY_AVX512_FORWARD)};
#endif
	return k;
}

/* One round of one copy's two times at length n, each lowered to the
 * least so far: the plain loop on src and src + PLAIN_APART + PLAIN_D, and
 * time_copy in arena; which runs first alternates from round to round. */
static void plain_round(int round, copy_fn fn, unsigned char *src, unsigned char *arena, size_t n, int samples,
			double *plain, double *probe)
{
	unsigned char *dst = src + PLAIN_APART + PLAIN_D;
	/* time_copy's copies a sample, before it rounds them to its lanes, so
	 * that reading the clock weighs about alike on both. */
	unsigned int reps = PLAIN_TICKS / (20u + (unsigned int)(n / 16));
	if (round & 1)
		*probe = fmin(*probe, time_copy(fn, arena, n, PLAIN_D, samples, PLAIN_TICKS));
	*plain = fmin(*plain, best_of(fn, dst, src, n, samples, reps));
	if (!(round & 1))
		*probe = fmin(*probe, time_copy(fn, arena, n, PLAIN_D, samples, PLAIN_TICKS));
}

/* Pins this process to the CPU it runs on, its mask before into saved; 0,
 * or -1 where it could not (it then times wherever it runs). */
static int pin_here(cpu_set_t *saved)
{
	cpu_set_t one;
	int cpu = sched_getcpu();
	if (cpu < 0 || sched_getaffinity(0, sizeof *saved, saved))
		return -1;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof one, &one) ? -1 : 0;
}

/* Every point's two times, rounds over all points: plain[c][l] and
 * probe[c][l] for copy c at lengths[l]. */
static void plain_times(const struct plain_copy *copies, int n_copies, unsigned char *src, unsigned char *arena,
			int samples, double plain[][LENGTHS], double probe[][LENGTHS])
{
	for (int c = 0; c < n_copies; c++)
		for (size_t l = 0; l < LENGTHS; l++)
			plain[c][l] = probe[c][l] = 1e300;
	for (int round = 0; round < PLAIN_ROUNDS; round++) {
		for (int c = 0; c < n_copies; c++)
			for (size_t l = 0; l < LENGTHS; l++)
				plain_round(round, copies[c].fn, src, arena, lengths[l], samples, &plain[c][l],
					    &probe[c][l]);
		progress("plain harness", (size_t)round + 1, PLAIN_ROUNDS);
	}
}

/* The rows and the closing count. */
static void plain_print(const struct plain_copy *copies, int n_copies, double plain[][LENGTHS],
			double probe[][LENGTHS])
{
	int agree = 0, points = 0;
	printf("  %-16s %6s %9s %9s %12s\n", "copy", "n", "plain", "probe", "probe/plain");
	for (int c = 0; c < n_copies; c++)
		for (size_t l = 0; l < LENGTHS; l++) {
			double ratio = probe[c][l] / plain[c][l];
			int ok = ratio >= 0.90 && ratio <= 1.10;
			agree += ok, points++;
			printf("  %-16s %6zu %9.1f %9.1f %12.3f%s\n", copies[c].name, lengths[l], plain[c][l],
			       probe[c][l], ratio, ok ? "" : "  DISAGREES");
		}
	printf("plain harness: %d of %d points agree within 10%%\n\n", agree, points);
}

void plain_harness(unsigned char *arena, int samples)
{
	struct plain_copy copies[4];
	double plain[4][LENGTHS], probe[4][LENGTHS];
	int n_copies = plain_copies(copies);
	unsigned char *src = mmap(NULL, PLAIN_SPAN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (src == MAP_FAILED) {
		perror("bench: plain harness: mmap");
		return;
	}
	memset(src, 0x5a, PLAIN_SPAN); /* every page its own, none the shared zero page */
	cpu_set_t saved;
	int pinned = pin_here(&saved) == 0;
	printf("plain harness, the probe's timer against a plain loop: ticks per call at d = %u, each the least of %d\n"
	       "  rounds over all points, the two in turns%s; plain: one copy over and over, its buffers\n"
	       "  %u MiB apart; probe: time_copy, as the grid and the probe time; DISAGREES where probe / plain is\n"
	       "  outside 0.90..1.10\n\n",
	       PLAIN_D, PLAIN_ROUNDS, pinned ? " on one CPU" : " (not pinned: sched_setaffinity refused)",
	       PLAIN_APART / 1048576u);
	plain_times(copies, n_copies, src, arena, samples, plain, probe);
	if (pinned)
		sched_setaffinity(0, sizeof saved, &saved);
	munmap(src, PLAIN_SPAN);
	plain_print(copies, n_copies, plain, probe);
}
