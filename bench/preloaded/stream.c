/* make bench, under LD_PRELOAD=build/libuarchcopy.so: memcpy as a program
 * calls it, through its PLT, on a long stream of calls whose sizes are
 * drawn afresh from the SPEC CPU2017 table of glibc's bench-memcpy-random
 * (size_table.h): the library against the C library, and against another
 * library's memcpy where one is named, timed in turns in one process. It
 * reports; it asserts nothing about speed. */
#include "../../common/timer.h"
#include "plt_slot.h"
#include "size_table.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const char usage[] =
	"usage: LD_PRELOAD=build/libuarchcopy.so preloaded-stream [--rounds N] [--calls N]\n"
	"                                       [--other LIB.so] [--csv FILE]\n"
	"\n"
	"Times memcpy as this program calls it, through its own PLT entry, on a stream of\n"
	"N calls (default 262144, at least 262144) whose sizes are drawn from the SPEC CPU2017\n"
	"distribution of glibc's benchtests/bench-memcpy-random.c, each source at a random\n"
	"64-byte-aligned offset and each destination at a random offset, both in 64 KiB\n"
	"regions of their own: the whole table, then its sizes 0..64, 65..512 and 513..4095\n"
	"bytes, each a stream of its own. Each round draws a new stream and times on it the\n"
	"preloaded library's memcpy, the C library's (and LIB's, dlopen'ed), each in turn\n"
	"first, the PLT slot pointed at each before its timing. Prints each copy's median\n"
	"ticks a call over the rounds (default 21, at most 101) and its ratio to the C\n"
	"library: the median of the rounds' ratios, with their least and greatest. --csv\n"
	"writes the same figures to FILE. Exit status 2 when the library is not preloaded.\n";

/* At least 262144 calls a stream, each round a new one: a stream timed
 * again is learnt by the branch predictors when it is short, and its
 * copies then take a fraction of their time on fresh sizes (measured: see
 * docs/notebook/measurements-2026-12.md#a-stream-the-predictors-cannot-learn). */
enum { REGION = 65536, LEAST_CALLS = 262144, MOST_CALLS = 1 << 24, MOST_ROUNDS = 101, MOST_SIDES = 3, WARM_CALLS = 4096 };

/* A call as 6 bytes, so that 262144 calls take 1.5 MiB: the source's
 * offset in 64-byte lines, the destination's in bytes, the size. */
struct stream_call {
	uint16_t src_line, dst, len;
};

/* The ranges the stream is drawn from: the whole table, then each range
 * alone, a stream of its own. */
static const struct {
	unsigned int lo, hi;
} ranges[] = {{0, 4095}, {0, 64}, {65, 512}, {513, 4095}};

/* The copies timed: the library's, the C library's, another's. */
struct side {
	const char *name;
	struct through_plt copy;
	double ticks[MOST_ROUNDS], ratio[MOST_ROUNDS]; /* a call; over the C library's */
};

static uint64_t next(uint64_t *state)
{
	/* splitmix64 (Steele, Lea and Flood, OOPSLA 2014). */
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* n calls, each size drawn afresh from d, its source and destination
 * anywhere their copy stays inside the region. */
static void draw_stream(struct stream_call *c, size_t n, const struct size_draw *d, uint64_t seed)
{
	uint64_t state = seed;
	for (size_t i = 0; i < n; i++) {
		unsigned int len = size_draw(d, next(&state));
		c[i].len = (uint16_t)len;
		c[i].src_line = (uint16_t)(next(&state) % ((REGION - len) / 64 + 1));
		c[i].dst = (uint16_t)(next(&state) % (REGION - len));
	}
}

/* Ticks a call of the n calls through fn, after WARM_CALLS of them
 * untimed, so that the copy's code and the first lines of the stream are
 * in the caches as they are for a program that calls memcpy all along. */
static double time_stream(copy_fn fn, unsigned char *dst, const unsigned char *src, const struct stream_call *c,
			  size_t n)
{
	for (size_t i = 0; i < WARM_CALLS; i++)
		fn(dst + c[i].dst, src + ((size_t)c[i].src_line << 6), c[i].len);
	uint64_t t0 = tsc();
	for (size_t i = 0; i < n; i++)
		fn(dst + c[i].dst, src + ((size_t)c[i].src_line << 6), c[i].len);
	uint64_t t1 = tsc();
	return (double)(t1 - t0) / (double)n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of v[0..n), and its least and greatest, v sorted in place. */
static double median_of(double *v, int n, double *lo, double *hi)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	*lo = v[0], *hi = v[n - 1];
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One range: a stream drawn afresh each round, each side timed on it in
 * turn, the first side of round k the k-th (mod sides). sides[1] is the C
 * library's, which the ratios are to. */
static void time_range(struct side *sides, int n_sides, const struct size_draw *d, unsigned int range,
		       struct stream_call *calls, size_t n, int rounds, unsigned char *dst, const unsigned char *src)
{
	for (int k = 0; k < rounds; k++) {
		draw_stream(calls, n, d, 0x75617263u + 1000003u * range + (uint64_t)k);
		for (int j = 0; j < n_sides; j++) {
			struct side *s = &sides[(k + j) % n_sides];
			s->ticks[k] = time_stream(reach(&s->copy), dst, src, calls, n);
		}
		for (int j = 0; j < n_sides; j++)
			sides[j].ratio[k] = sides[j].ticks[k] / sides[1].ticks[k];
	}
}

static void print_header(const struct side *sides, int n_sides, size_t n, int rounds)
{
	printf("preloaded, a long random stream: memcpy through this program's PLT, %zu calls a round whose sizes\n"
	       "  are drawn afresh each round from glibc bench-memcpy-random's SPEC CPU2017 table (the whole\n"
	       "  table, then each range alone), sources 64-byte aligned and destinations at any byte, each in\n"
	       "  64 KiB; %d rounds, each copy first in turn. Figures: the share of the table's calls in the\n"
	       "  range; each copy's ticks a call, the median over the rounds; each copy / the C library's, the\n"
	       "  median of the rounds' ratios (least..greatest):\n",
	       n, rounds);
	printf("  %-10s %6s", "sizes", "share");
	for (int j = 0; j < n_sides; j++)
		printf(" %12s", j == 1 ? "C library" : sides[j].name);
	for (int j = 0; j < n_sides; j++)
		if (j != 1)
			printf("   %22s", j == 0 ? "library / C library" : "other / C library");
	printf("\n");
}

/* The row of one range, and its lines of csv. */
static void print_row(struct side *sides, int n_sides, unsigned int range, double share, int rounds, FILE *csv)
{
	char label[16];
	double tick[MOST_SIDES], ratio[MOST_SIDES], lo[MOST_SIDES], hi[MOST_SIDES], x, y;
	snprintf(label, sizeof label, "%u..%u", ranges[range].lo, ranges[range].hi);
	for (int j = 0; j < n_sides; j++) {
		tick[j] = median_of(sides[j].ticks, rounds, &x, &y);
		ratio[j] = median_of(sides[j].ratio, rounds, &lo[j], &hi[j]);
	}
	printf("  %-10s %5.1f%%", label, 100 * share);
	for (int j = 0; j < n_sides; j++)
		printf(" %12.1f", tick[j]);
	for (int j = 0; j < n_sides; j++) {
		char cell[48];
		snprintf(cell, sizeof cell, "%5.3f (%5.3f..%5.3f)", ratio[j], lo[j], hi[j]);
		if (j != 1)
			printf("   %22s", cell);
	}
	printf("\n");
	for (int j = 0; csv && j < n_sides; j++)
		fprintf(csv, "%u,%u,%.4f,%s,%.2f,%.4f,%.4f,%.4f\n", ranges[range].lo, ranges[range].hi, share,
			j == 1 ? "libc" : j == 0 ? "library" : "other", tick[j], ratio[j], lo[j], hi[j]);
}

/* Every range in turn; 0, or 1 after saying why. */
static int run(struct side *sides, int n_sides, size_t n, int rounds, FILE *csv)
{
	struct stream_call *calls = malloc(n * sizeof *calls);
	/* Both regions page-aligned and apart, as a program's buffers are. */
	unsigned char *arena = mmap(NULL, 2 * REGION + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!calls || arena == MAP_FAILED) {
		fprintf(stderr, "preloaded-stream: no memory for %zu calls\n", n);
		return 1;
	}
	memset(arena, 0x5a, 2 * REGION + 4096);
	if (csv)
		fprintf(csv, "lo,hi,share,copy,ticks_per_call,ratio_to_libc,ratio_least,ratio_greatest\n");
	print_header(sides, n_sides, n, rounds);
	for (unsigned int r = 0; r < sizeof ranges / sizeof *ranges; r++) {
		struct size_draw d;
		double share = size_draw_init(&d, ranges[r].lo, ranges[r].hi);
		time_range(sides, n_sides, &d, r, calls, n, rounds, arena + REGION + 4096, arena);
		print_row(sides, n_sides, r, share, rounds, csv);
		fflush(stdout);
	}
	printf("\n");
	munmap(arena, 2 * REGION + 4096);
	free(calls);
	return 0;
}

/* The sides: the library, where this program's PLT slot of memcpy points
 * once the library has bound it; the C library's memcpy; other's memcpy,
 * where other is named. All called through the same PLT entry. 0, or 1 or
 * 2 after saying why. */
static int sides_of(struct side *sides, int *n_sides, const char *other)
{
	static struct plt_copies plt;
	int rc = plt_copies("preloaded-stream", &plt);
	if (rc)
		return rc;
	sides[0] = (struct side){.name = "library", .copy = plt.ours_memcpy};
	sides[1] = (struct side){.name = "C library", .copy = plt.libc_memcpy};
	*n_sides = 2;
	if (other) {
		void *h = dlopen(other, RTLD_NOW | RTLD_LOCAL);
		void *fn = h ? dlsym(h, "memcpy") : NULL;
		if (!fn) {
			fprintf(stderr, "preloaded-stream: no memcpy in %s: %s\n", other, dlerror());
			return 2;
		}
		sides[2] = (struct side){.name = "other", .copy = {plt.ours_memcpy.slot, plt.ours_memcpy.entry, (copy_fn)fn}};
		*n_sides = 3;
	}
	printf("preloaded-stream: this program's PLT slot of memcpy points into %s under the library%s%s\n",
	       object_of((void *)plt.ours_memcpy.to), other ? "; other: " : "", other ? object_of(sides[2].copy.to) : "");
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = 21;
	size_t n = LEAST_CALLS;
	const char *other = NULL, *csv_path = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		} else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0 &&
			   atoi(argv[i + 1]) <= MOST_ROUNDS) {
			rounds = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--calls") == 0 && i + 1 < argc && atol(argv[i + 1]) >= LEAST_CALLS &&
			   atol(argv[i + 1]) <= MOST_CALLS) {
			n = (size_t)atol(argv[++i]);
		} else if (strcmp(argv[i], "--other") == 0 && i + 1 < argc) {
			other = argv[++i];
		} else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
			csv_path = argv[++i];
		} else {
			fprintf(stderr, "preloaded-stream: unknown or incomplete option '%s' (try --help)\n", argv[i]);
			return 2;
		}
	}
	struct side sides[MOST_SIDES];
	int n_sides, status = sides_of(sides, &n_sides, other);
	if (status)
		return status;
	FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
	if (csv_path && !csv) {
		perror(csv_path);
		return 1;
	}
	status = run(sides, n_sides, n, rounds, csv);
	if (csv && fclose(csv)) {
		perror(csv_path);
		return 1;
	}
	return status;
}
