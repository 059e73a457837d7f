/* Timing a copy routine: rdtsc fenced by lfence, many copies per sample,
 * the minimum over samples. Shared by the probe and the benchmark. */
#ifndef COMMON_TIMER_H
#define COMMON_TIMER_H

#include <stddef.h>
#include <stdint.h>

typedef void *(*copy_fn)(void *dst, const void *src, size_t n);

/* lfence before rdtsc waits for earlier instructions to complete; lfence
 * after keeps later ones from starting before the read (Intel SDM vol. 2B,
 * RDTSC). On AMD, lfence is dispatch-serialising once the kernel sets
 * MSR C001_1029[1], which Linux does (X86_FEATURE_LFENCE_RDTSC,
 * arch/x86/kernel/cpu/amd.c). */
static inline uint64_t tsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

/* Ticks per copy: the minimum over samples of reps copies each, after one
 * warming call. */
static inline double best_of(copy_fn fn, void *dst, const void *src, size_t n, int samples, unsigned int reps)
{
	double best = 1e300;
	fn(dst, src, n);
	for (int s = 0; s < samples; s++) {
		uint64_t t0 = tsc();
		for (unsigned int r = 0; r < reps; r++)
			fn(dst, src, n);
		uint64_t t1 = tsc();
		double per = (double)(t1 - t0) / reps;
		if (per < best)
			best = per;
	}
	return best;
}

/* Ticks per copy, rotating over `lanes` copies of the same length and
 * distance whose addresses differ (mod 4 KiB) by 256-byte steps. Back to
 * back, a short copy's loads would meet the low 12 address bits of stores
 * that an earlier call made to the same buffers and that are still in
 * flight: the time would be that of a loop copying one buffer over and
 * over, not of a copy. */
#define MAX_LANES 16
/* Not inlined: every routine a caller compares is timed by the same loop
 * at the same address, so that the loop's own cost (which moves with its
 * alignment) is the same on both sides of a ratio. */
__attribute__((noinline, unused)) static double best_of_lanes(copy_fn fn, void *const *dst, const void *const *src, int lanes, size_t n,
				   int samples, unsigned int reps)
{
	double best = 1e300;
	unsigned int l = (unsigned int)lanes;
	for (int k = 0; k < lanes; k++)
		fn(dst[k], src[k], n);
	reps = reps < l ? l : (reps + l - 1) / l * l;
	for (int s = 0; s < samples; s++) {
		uint64_t t0 = tsc();
		for (unsigned int r = 0; r < reps; r += l)
			for (int k = 0; k < lanes; k++)
				fn(dst[k], src[k], n);
		uint64_t t1 = tsc();
		double per = (double)(t1 - t0) / reps;
		if (per < best)
			best = per;
	}
	return best;
}

/* The longest copy time_copy times: the probe's largest length. */
#define MAX_TIMED_LENGTH (8u * 1048576u)

/* The bytes a point's lanes may touch and still run from L1: half of
 * 32 KiB, the smallest L1D of the x86-64 cores this project times (Intel
 * from Skylake, AMD from Zen 2), so that the timing loop, the stack and
 * the rest of the line set leave them there. */
#define LANE_FOOTPRINT (16u * 1024u)
/* The fewest lanes: two, so that a lane's stores have a whole copy of
 * the other lane's to drain before its loads come round again. */
#define MIN_LANES 2

/* How many lanes time_copy rotates over at n bytes: as many as fit
 * LANE_FOOTPRINT, each lane's source and destination n bytes in whole
 * lines, from MAX_LANES down to MIN_LANES. A point's lanes then touch
 * LANE_FOOTPRINT, L1-hot, while they fit (to 4 KiB), and past that a
 * footprint that grows with n through L2 and beyond: one rule at every
 * length, no jump at one. A count fixed by length range jumps where it
 * changes (docs/derivation.md, "How a point is timed"). */
static inline int time_copy_lanes(size_t n)
{
	size_t lane = 2 * ((n + 63) / 64 * 64);
	size_t fit = LANE_FOOTPRINT / (lane ? lane : 1);
	return fit >= MAX_LANES ? MAX_LANES : fit <= MIN_LANES ? MIN_LANES : (int)fit;
}

/* An arena for time_copy: room for its lanes of any copy at any distance
 * (a lane is at most twice the length and three pages, plus its 256-byte
 * step): MIN_LANES of the longest, or MAX_LANES of a copy of at most
 * LANE_FOOTPRINT / (2 MAX_LANES) bytes. */
#define TIMING_ARENA (MIN_LANES * (2u * MAX_TIMED_LENGTH + 4u * 4096u))

/* Ticks per call of fn copying n bytes to (distance d mod 4096) above its
 * source, in arena. Each lane's source lies 256 bytes further past a page
 * boundary than the last lane's, its destination d above it and past its
 * end, so nothing overlaps; time_copy_lanes says how many lanes. Each
 * sample holds about ticks_per_sample ticks, assuming some 20 ticks of
 * start-up and 16 bytes a tick. */
__attribute__((noinline, unused)) static double time_copy(copy_fn fn, unsigned char *arena, size_t n, unsigned int d, int samples,
			       unsigned int ticks_per_sample)
{
	void *dst[MAX_LANES];
	const void *src[MAX_LANES];
	size_t gap = d;
	while (gap < n)
		gap += 4096;
	size_t stride = (gap + n + 8191) / 4096 * 4096;
	int lanes = time_copy_lanes(n);
	for (int k = 0; k < lanes; k++) {
		src[k] = arena + (size_t)k * (stride + 256);
		dst[k] = arena + (size_t)k * (stride + 256) + gap;
	}
	return best_of_lanes(fn, dst, src, lanes, n, samples, ticks_per_sample / (20 + (unsigned int)(n / 16)));
}

#endif
