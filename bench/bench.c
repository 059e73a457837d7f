/* make bench: the copies side by side on this CPU, in one run.
 *
 * For each length and distance it times the generated memcpy under the rule
 * uc_rule_init() installs here, one plain rep movsb, the generated
 * descending copy and the C library's memcpy, and prints each as a ratio to
 * rep movsb at distance 0 for the same length. It reports; it asserts
 * nothing about speed. */
#include "copy_rule.h"
#include "../probe/plot.h"
#include "../probe/timer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const size_t lengths[] = {64, 256, 1024, 8192, 65536};
static const unsigned int distances[] = {0, 1, 16, 31, 32, 63, 64, 65, 2048};
#define N_LENGTHS (sizeof lengths / sizeof *lengths)
#define N_DISTANCES (sizeof distances / sizeof *distances)

/* One rep movsb, as a kernel's plain memcpy would be. */
__attribute__((noinline)) static void *rep_movsb(void *dst, const void *src, size_t n)
{
	void *ret = dst;
	__asm__ __volatile__("rep movsb" : "+D"(dst), "+S"(src), "+c"(n)::"memory");
	return ret;
}

/* Called through a volatile pointer so the compiler cannot inline it. */
static void *(*volatile libc_memcpy)(void *, const void *, size_t) = memcpy;

__attribute__((noinline)) static void *libc_copy(void *dst, const void *src, size_t n)
{
	return libc_memcpy(dst, src, n);
}

struct routine {
	const char *name;
	copy_fn fn;
};

static const struct routine routines[] = {
	{"uc_memcpy", uc_memcpy},
	{"rep_movsb", rep_movsb},
	{"copy_down", uc_copy_down},
	{"libc_memcpy", libc_copy},
};
#define N_ROUTINES (sizeof routines / sizeof *routines)

static const char usage[] =
	"usage: bench [--out DIR] [--samples N]\n"
	"\n"
	"Times uc_memcpy (under the rule uc_rule_init installs on this CPU), one\n"
	"rep movsb, uc_copy_down and the C library's memcpy side by side, for\n"
	"n in 64, 256, 1 KiB, 8 KiB, 64 KiB and d = (dst - src) mod 4096 in\n"
	"0, 1, 16, 31, 32, 63, 64, 65, 2048. Prints ratios to rep movsb at d = 0 for\n"
	"the same n, and writes DIR/bench.csv and DIR/bench.png (default build/bench-results).\n"
	"It reports; it asserts nothing about speed.\n";

static int plot(const char *dir)
{
	char *body = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&body, &size);
	if (!f) {
		perror("bench: open_memstream");
		return -1;
	}
	fprintf(f, "set datafile separator ','\n"
		   "set style data histograms\n"
		   "set style histogram clustered gap 1\n"
		   "set style fill solid 0.8 border -1\n"
		   "set logscale y\n"
		   "set yrange [0.1:*]\n"
		   "set grid ytics\n"
		   "set ylabel 'time / rep movsb at d = 0'\n"
		   "set multiplot layout 2,3 title 'copies side by side: ratio to rep movsb at d = 0, same n (lower is faster)'\n");
	for (size_t l = 0; l < N_LENGTHS; l++) {
		fprintf(f, "set title 'n = %zu'\nset xlabel 'd = (dst - src) mod 4096'\nplot ", lengths[l]);
		for (size_t r = 0; r < N_ROUTINES; r++)
			fprintf(f, "%s'< grep \"^%zu,\" bench.csv | grep \",%s,\"' using 5:xtic(2) title '%s'",
				r ? ", " : "", lengths[l], routines[r].name, routines[r].name);
		fprintf(f, "\n");
	}
	fprintf(f, "unset multiplot\n");
	int rc = fclose(f) ? -1 : plot_png("bench", dir, "bench.gp", "bench.png", 1500, 900, body);
	free(body);
	return rc;
}

int main(int argc, char **argv)
{
	const char *dir = "build/bench-results";
	int samples = 25;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		} else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
			dir = argv[++i];
		} else if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc) {
			samples = atoi(argv[++i]);
			if (samples < 1) {
				fprintf(stderr, "bench: --samples must be at least 1\n");
				return 2;
			}
		} else {
			fprintf(stderr, "bench: unknown or incomplete option '%s' (try --help)\n", argv[i]);
			return 2;
		}
	}
	if (!plot_available()) {
		fprintf(stderr, "bench: gnuplot is missing, and bench.png needs it (make deps)\n");
		return 1;
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "bench: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	char line[128];
	uc_rule_describe(line, sizeof line, uc_rule_init());
	printf("%s\n", line);

	size_t arena_size = 4 * 65536;
	unsigned char *arena = mmap(NULL, arena_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED) {
		perror("bench: mmap");
		return 1;
	}
	memset(arena, 0x5a, arena_size);
	static double ticks[N_LENGTHS][N_DISTANCES][N_ROUTINES];
	int tty = isatty(2);
	for (size_t l = 0; l < N_LENGTHS; l++)
		for (size_t d = 0; d < N_DISTANCES; d++) {
			size_t gap = distances[d];
			while (gap < lengths[l])
				gap += 4096;
			for (size_t r = 0; r < N_ROUTINES; r++)
				ticks[l][d][r] = best_of(routines[r].fn, arena + gap, arena, lengths[l], samples, reps_for(lengths[l]));
			if (tty)
				fprintf(stderr, "\r  timing %zu of %zu", l * N_DISTANCES + d + 1, N_LENGTHS * N_DISTANCES);
		}
	if (tty)
		fputc('\n', stderr);

	char path[1200];
	snprintf(path, sizeof path, "%s/bench.csv", dir);
	FILE *csv = fopen(path, "w");
	if (!csv) {
		fprintf(stderr, "bench: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fprintf(csv, "n,d,routine,ticks,ratio\n");
	printf("ratio to rep movsb at d = 0 for the same n (lower is faster)\n\n");
	printf("%7s %5s", "n", "d");
	for (size_t r = 0; r < N_ROUTINES; r++)
		printf(" %12s", routines[r].name);
	printf("   rep movsb d=0 (ticks)\n");
	for (size_t l = 0; l < N_LENGTHS; l++) {
		double base = ticks[l][0][1] > 0 ? ticks[l][0][1] : 1;
		for (size_t d = 0; d < N_DISTANCES; d++) {
			printf("%7zu %5u", lengths[l], distances[d]);
			for (size_t r = 0; r < N_ROUTINES; r++) {
				double ratio = ticks[l][d][r] / base;
				printf(" %12.2f", ratio);
				fprintf(csv, "%zu,%u,%s,%.2f,%.4f\n", lengths[l], distances[d], routines[r].name,
					ticks[l][d][r], ratio);
			}
			if (d == 0)
				printf("   %.0f", base);
			printf("\n");
		}
		printf("\n");
	}
	if (fclose(csv)) {
		fprintf(stderr, "bench: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (plot(dir))
		return 1;
	printf("wrote %s/bench.csv and %s/bench.png\n", dir, dir);
	return 0;
}
