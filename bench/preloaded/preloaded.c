/* make bench, under LD_PRELOAD=build/libuarchcopy.so: memcpy as a program
 * calls it (the preloaded library, through the PLT) against the C
 * library's own, on the random-size workload and its sorted control, side
 * by side in one run; and where the library's memmove entry jumps, read
 * from its first bytes, so that a test can see which copy a call runs. It
 * reports; it asserts nothing about speed. */
#include "../../common/workload.h"

#include "../../common/bench_grid.h"
#include "../../common/timer.h"
#include "../../derive/grid_gate.h"
#include "plt_slot.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static const char usage[] =
	"usage: LD_PRELOAD=build/libuarchcopy.so preloaded [--rounds N] [--processes P]\n"
	"\n"
	"Times memcpy as this program calls it (the preloaded libuarchcopy) against the\n"
	"C library's own memcpy, on the random-size workload (glibc bench-memcpy-random's\n"
	"sizes) and the same calls sorted by size, and prints where libuarchcopy's\n"
	"memmove entry jumps (its first instruction, decoded) and where this program's\n"
	"PLT slot of memcpy points. Both copies are called through this program's PLT\n"
	"entry, its slot pointed at each in turn. Each copy is timed in\n"
	"turns with one rep movsb over N rounds (default and most 61), never the two\n"
	"with each other; a ratio is that of their median per-round ratios to it.\n"
	"With --processes P (at most 31), it runs itself P times, each a new process\n"
	"that places the code and the pages anew, and prints the median of their\n"
	"ratios with their range: one process's ratio moved by 0.90..1.13 from run to\n"
	"run of one build on a Zen 4 guest. --figures prints one process's figures as\n"
	"numbers, for that; --theirs-first times the C library's copy first (every\n"
	"other process does; one process alone times memcpy first). Last, memmove\n"
	"against the C library's where the ranges overlap, from 64 bytes to 4 MiB, the\n"
	"destination 1, 3, 63, 64 and 4096 bytes above the source and as far below\n"
	"(the median of N rounds, at most 9); then\n"
	"memcpy against the C library's at every point of make bench's grid, as the\n"
	"probe's grid gate times a table (the median of 15 rounds' ratios, in turns;\n"
	"a point over 3% timed twice more, the median of the three), a point marked *\n"
	"where memcpy lost: by more than 3%, and slower in 12 of the 15 rounds or 30 of\n"
	"the 45.\n"
	"Exit status 2 when the library is not preloaded.\n";

enum { MAX_PROCESSES = 31 };

/* The library's memcpy and memmove and the C library's, each called
 * through this program's PLT (plt_slot.h). */
static struct plt_copies plt;

/* What both are timed in turns with: one rep movsb, no branch on the size.
 * Two copies that branch on the size, timed in turns with each other,
 * measure their pairing as well (probe/streams.h, time_against): the C
 * library's memmove timed slower in turns with a compiled tree than in
 * turns with itself (measured: see
 * docs/notebook/comment-figures-2026-12.md#each-copy-timed-in-turns-with-rep-movsb). */
__attribute__((naked)) static void *rep_movsb(void *dst, const void *src, size_t n)
{
	(void)dst, (void)src, (void)n;
	__asm__("mov %rdi, %rax\n\tmov %rdx, %rcx\n\trep movsb\n\tret");
}

/* One process's figures: ours over the C library's, each timed in turns
 * with rep movsb, the ratio of their median per-round ratios to it; ours
 * against itself, the median of its rounds' ratios. */
struct one_run {
	double ratio[2], self[2], ticks_ours[2], ticks_libc[2];
};

static void time_workload(int rounds, int theirs_first, struct one_run *out)
{
	enum { CALLS = WORKLOAD_CALLS, REGION = WORKLOAD_REGION, ARENA = 2 * REGION + 8192 };
	static struct call calls[2][CALLS];
	/* Page-aligned, as make bench's and the probe's arenas are: the
	 * workload's offsets are drawn aligned (to 64 bytes, say) from the
	 * arena's start, and malloc's start is wherever the heap stands. */
	unsigned char *arena = mmap(NULL, ARENA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED) {
		perror("preloaded: mmap");
		exit(1);
	}
	memset(arena, 0x5a, ARENA);
	random_calls(calls[0], CALLS, REGION, 1);
	memcpy(calls[1], calls[0], sizeof calls[0]);
	sort_calls(calls[1], CALLS);
	/* b over a, the median of per-round ratios (time_paired), each copy
	 * against rep movsb; ours against itself is the floor a ratio cannot
	 * be read below. */
	const struct call *const streams[2] = {calls[0], calls[1]};
	unsigned char *dst = arena + REGION + 4096 + 2048;
	/* Which goes first turns from process to process: the same code
	 * through either jump times differently by its turn, the one timed
	 * first the faster (measured: see
	 * docs/notebook/comment-figures-2026-12.md#which-copy-goes-first). */
	struct paired o, l;
	if (theirs_first)
		l = time_paired(rep_movsb, reach(&plt.libc_memcpy), dst, arena, streams, CALLS, rounds),
		o = time_paired(rep_movsb, reach(&plt.ours_memcpy), dst, arena, streams, CALLS, rounds);
	else
		o = time_paired(rep_movsb, reach(&plt.ours_memcpy), dst, arena, streams, CALLS, rounds),
		l = time_paired(rep_movsb, reach(&plt.libc_memcpy), dst, arena, streams, CALLS, rounds);
	copy_fn ours = reach(&plt.ours_memcpy);
	struct paired self = time_paired(ours, ours, dst, arena, streams, CALLS, rounds);
	*out = (struct one_run){{o.ratio[0] / l.ratio[0], o.ratio[1] / l.ratio[1]},
				{self.ratio[0], self.ratio[1]},
				{o.ticks[1][0], o.ticks[1][1]},
				{l.ticks[1][0], l.ticks[1][1]}};
	munmap(arena, ARENA);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Ticks of the least of 5 samples of memmove(buf + d, buf, n), the two
 * ranges overlapping, each sample enough calls for about 2^22 bytes. */
static double overlap_ticks(copy_fn move, unsigned char *buf, size_t n, long d)
{
	double best = 1e300;
	unsigned int reps = (unsigned int)((1u << 22) / n) + 1;
	move(buf + d, buf, n);
	for (int s = 0; s < 5; s++) {
		uint64_t t0 = tsc();
		for (unsigned int r = 0; r < reps; r++)
			move(buf + d, buf, n);
		uint64_t t1 = tsc();
		best = fmin(best, (double)(t1 - t0) / reps);
	}
	return best;
}

/* memmove as a program calls it against the C library's, where the
 * ranges overlap (inserting into an array, shifting a buffer): dst d bytes
 * above src, or below where d < 0, from 64 bytes to past the L2; "-" where
 * |d| >= n. Each ratio the median of rounds' ratios (at most 9), in turns. */
static void time_overlaps(const struct through_plt *ours, const struct through_plt *theirs, int rounds)
{
	static const size_t lengths[] = {64, 256, 1024, 4096, 16384, 65536, 1048576, 4194304};
	static const long distances[] = {1, 3, 63, 64, 4096, -1, -3, -64, -4096};
	enum { MOST_ROUNDS = 9 };
	if (rounds > MOST_ROUNDS)
		rounds = MOST_ROUNDS;
	size_t size = 4194304 + 2 * 8192;
	unsigned char *arena = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED) {
		perror("preloaded: mmap");
		exit(1);
	}
	memset(arena, 0x5a, size);
	unsigned char *buf = arena + 8192;
	printf("overlapping memmove, preloaded / the C library's (median of %d rounds, in turns):\n  %-8s", rounds, "n");
	for (size_t j = 0; j < sizeof distances / sizeof *distances; j++)
		printf(" d = %-5ld", distances[j]);
	printf("\n");
	for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++) {
		printf("  %-8zu", lengths[i]);
		for (size_t j = 0; j < sizeof distances / sizeof *distances; j++) {
			size_t n = lengths[i], span = (size_t)labs(distances[j]);
			if (span >= n) {
				printf(" %-9s", "-");
				continue;
			}
			double r[MOST_ROUNDS];
			for (int k = 0; k < rounds; k++) {
				double a, b;
				if (k % 2)
					b = overlap_ticks(reach(theirs), buf, n, distances[j]),
					a = overlap_ticks(reach(ours), buf, n, distances[j]);
				else
					a = overlap_ticks(reach(ours), buf, n, distances[j]),
					b = overlap_ticks(reach(theirs), buf, n, distances[j]);
				r[k] = a / b;
			}
			printf(" %-9.3f", median(r, rounds));
		}
		printf("\n");
	}
	munmap(arena, size);
}

/* ours over theirs at n bytes, distance d: the median of GRID_GATE_ROUNDS
 * rounds' ratios, the two timed in turns; *slower counts the rounds ours
 * was the slower. */
static double point_ratio(const struct through_plt *ours, const struct through_plt *theirs, unsigned char *arena,
			  size_t n, unsigned int d, int *slower)
{
	double r[GRID_GATE_ROUNDS];
	for (int k = 0; k < GRID_GATE_ROUNDS; k++) {
		double a, b;
		if (k % 2)
			b = time_copy(reach(theirs), arena, n, d, 3, 3000), a = time_copy(reach(ours), arena, n, d, 3, 3000);
		else
			a = time_copy(reach(ours), arena, n, d, 3, 3000), b = time_copy(reach(theirs), arena, n, d, 3, 3000);
		r[k] = a / b;
		*slower += a > b;
	}
	return median(r, GRID_GATE_ROUNDS);
}

/* memcpy as a program calls it against the C library's at each point of
 * make bench's grid below 8 MiB, as the probe's grid gate times a table
 * against its baseline (probe/grid_gate.c): each point the median of
 * GRID_GATE_ROUNDS rounds' ratios, the two timed in turns; a point whose
 * median is over the noise floor timed twice more, its ratio the median
 * of the three, its slower rounds all of theirs; marked where it loses by
 * the gate's rule (grid_gate_loses, at the noise floor). The figures of
 * the code that ships: the library through the PLT. */
static void time_grid(const struct through_plt *ours, const struct through_plt *theirs)
{
	unsigned char *arena = mmap(NULL, TIMING_ARENA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED) {
		perror("preloaded: mmap");
		exit(1);
	}
	memset(arena, 0x5a, TIMING_ARENA);
	int losses = 0;
	printf("memcpy, preloaded / the C library's, on make bench's grid (median of %d rounds, in turns, of three "
	       "timings where over %.0f%%; *: lost, slower in %d of %d rounds or %d of %d, and by over %.0f%%):\n  %-8s",
	       GRID_GATE_ROUNDS, DERIVE_NOISE_FLOOR * 100, grid_gate_slower_needed(GRID_GATE_ROUNDS), GRID_GATE_ROUNDS,
	       grid_gate_slower_needed(3 * GRID_GATE_ROUNDS), 3 * GRID_GATE_ROUNDS, DERIVE_NOISE_FLOOR * 100, "n \\ d");
	for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++)
		printf(" %6u", bench_grid_distances[j]);
	printf("\n");
	for (size_t i = 0; i < BENCH_GRID_LENGTHS && bench_grid_lengths[i] < 8388608; i++) {
		size_t n = bench_grid_lengths[i];
		printf("  %-8zu", n);
		for (size_t j = 0; j < BENCH_GRID_DISTANCES; j++) {
			unsigned int d = bench_grid_distances[j];
			int slower = 0, rounds = GRID_GATE_ROUNDS;
			double m = point_ratio(ours, theirs, arena, n, d, &slower);
			if (m > 1 + DERIVE_NOISE_FLOOR) {
				double again[3] = {m, point_ratio(ours, theirs, arena, n, d, &slower),
						   point_ratio(ours, theirs, arena, n, d, &slower)};
				m = median(again, 3), rounds = 3 * GRID_GATE_ROUNDS;
			}
			int lost = grid_gate_loses(m, slower, rounds, DERIVE_NOISE_FLOOR);
			losses += lost;
			printf(" %5.2f%s", m, lost ? "*" : " ");
		}
		printf("\n");
	}
	printf("  %d points lost\n", losses);
	munmap(arena, TIMING_ARENA);
}

/* Runs this program again, n times, each a new process (its code and
 * pages placed anew), reading each one's figures back. 0, or -1 after
 * saying why. */
static int time_processes(int n, int rounds, struct one_run *runs)
{
	for (int k = 0; k < n; k++) {
		int fd[2];
		if (pipe(fd)) {
			perror("preloaded: pipe");
			return -1;
		}
		pid_t pid = fork();
		if (pid < 0) {
			perror("preloaded: fork");
			return -1;
		}
		if (pid == 0) {
			char r[16];
			snprintf(r, sizeof r, "%d", rounds);
			dup2(fd[1], 1);
			close(fd[0]);
			close(fd[1]);
			execl("/proc/self/exe", "preloaded", k % 2 ? "--theirs-first" : "--figures", "--figures", "--rounds",
			      r, (char *)NULL);
			_exit(127);
		}
		close(fd[1]);
		FILE *in = fdopen(fd[0], "r");
		struct one_run *x = &runs[k];
		int got = in ? fscanf(in, "%lf %lf %lf %lf %lf %lf %lf %lf", &x->ratio[0], &x->ratio[1], &x->self[0],
				      &x->self[1], &x->ticks_ours[0], &x->ticks_ours[1], &x->ticks_libc[0],
				      &x->ticks_libc[1])
			      : 0;
		if (in)
			fclose(in);
		int status;
		waitpid(pid, &status, 0);
		if (got != 8 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "preloaded: process %d of %d gave no figures\n", k + 1, n);
			return -1;
		}
	}
	return 0;
}

/* The workload in processes processes, its medians and spread, and the
 * library's targets: memcpy as entry (the library's memmove) reaches it,
 * against theirs. Nonzero where a process gave no figures. */
static int report_workload(int processes, int rounds, void *entry, copy_fn theirs)
{
	struct one_run runs[MAX_PROCESSES];
	if (processes == 1)
		time_workload(rounds, 0, &runs[0]);
	else if (time_processes(processes, rounds, runs))
		return -1;
	/* Each figure the median over the processes, its spread beside it. */
	double col[MAX_PROCESSES], med[8], lo[2], hi[2];
	for (int f = 0; f < 8; f++) {
		for (int k = 0; k < processes; k++) {
			const double *x = f < 2 ? runs[k].ratio : f < 4 ? runs[k].self : f < 6 ? runs[k].ticks_ours : runs[k].ticks_libc;
			col[k] = x[f % 2];
		}
		med[f] = median(col, processes);
		if (f < 2)
			lo[f] = col[0], hi[f] = col[processes - 1];
	}
	if (processes == 1)
		printf("preloaded: memcpy / the C library's memcpy, random sizes %.3f, sorted control %.3f (each timed in\n"
		       "  turns with rep movsb over %d rounds; memcpy / itself %.3f and %.3f)\n",
		       med[0], med[1], rounds, med[2], med[3]);
	else
		printf("preloaded: memcpy / the C library's memcpy, random sizes %.3f (%.3f..%.3f), sorted control %.3f\n"
		       "  (%.3f..%.3f): the median over %d processes, each placing code and pages anew, of each\n"
		       "  one's ratio, each copy timed in turns with rep movsb over %d rounds; memcpy / itself %.3f and\n"
		       "  %.3f)\n",
		       med[0], lo[0], hi[0], med[1], lo[1], hi[1], processes, rounds, med[2], med[3]);
	printf("  (median ticks per call: random %.1f against %.1f, sorted %.1f against %.1f)\n", med[4], med[6], med[5],
	       med[7]);
	/* The drop-in library's targets: the C library's time within the
	 * noise where the core has no compiled table (the PLT slots point at
	 * the C library's own copies then); no slower than the C library where
	 * it has. */
	int deferred = strcmp(object_of(first_jump(entry)), object_of((void *)theirs)) == 0;
	printf("targets, the drop-in library (%s):\n  %-62s %8.3f   %s\n  %-62s %8.3f   %s\n\n",
	       deferred ? "no compiled table here: the C library's memmove" : "this core's routines",
	       "random sizes, preloaded memcpy / C library", med[0], deferred ? "<= 1.01" : "<= 1.00",
	       "sorted control, preloaded memcpy / C library", med[1], deferred ? "<= 1.01" : "<= 1.00");
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = WORKLOAD_PAIRED_ROUNDS, processes = 1, figures = 0, theirs_first = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		} else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0 &&
			   atoi(argv[i + 1]) <= WORKLOAD_PAIRED_ROUNDS) {
			rounds = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--processes") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0 &&
			   atoi(argv[i + 1]) <= MAX_PROCESSES) {
			processes = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--figures") == 0) {
			figures = 1;
		} else if (strcmp(argv[i], "--theirs-first") == 0) {
			theirs_first = 1;
		} else {
			fprintf(stderr, "preloaded: unknown or incomplete option '%s' (try --help)\n", argv[i]);
			return 2;
		}
	}
	int rc = plt_copies("preloaded", &plt);
	if (rc)
		return rc;
	void *entry = plt.entry;
	copy_fn theirs = plt.libc_memcpy.to;
	if (figures) {
		struct one_run r;
		time_workload(rounds, theirs_first, &r);
		printf("%.4f %.4f %.4f %.4f %.2f %.2f %.2f %.2f\n", r.ratio[0], r.ratio[1], r.self[0], r.self[1],
		       r.ticks_ours[0], r.ticks_ours[1], r.ticks_libc[0], r.ticks_libc[1]);
		return 0;
	}
	printf("preloaded: %s's memmove entry jumps to %s; this program's PLT slot of memcpy points into %s\n",
	       object_of(entry), object_of(first_jump(entry)), object_of((void *)plt.ours_memcpy.to));
	fflush(stdout);
	if (report_workload(processes, rounds, entry, theirs))
		return 1;
	time_overlaps(&plt.ours_memmove, &plt.libc_memmove, rounds);
	printf("\n");
	time_grid(&plt.ours_memcpy, &plt.libc_memcpy);
	printf("\n");
	return 0;
}
