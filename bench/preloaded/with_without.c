/* make bench: a program as a user runs it, with the drop-in library
 * preloaded and without, in turns; its CPU time (user + system) from the
 * rusage wait4 returns, which counts the children it waited for. It
 * reports; it asserts nothing about speed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
	"usage: with-without [--runs N] [--other LIB.so] [--csv FILE] NAME LIB.so -- COMMAND [ARG...]\n"
	"       with-without --header N [--other LIB.so]\n"
	"\n"
	"Runs COMMAND once untimed each way, then N times (default 5, at most 51) with\n"
	"LD_PRELOAD=LIB.so, N times without LD_PRELOAD (and N times with LD_PRELOAD=other),\n"
	"in turns, each round a different one first; its output to /dev/null, its stderr\n"
	"kept. Prints one row, NAME: the median user + system CPU seconds of each (the\n"
	"child's and its children's, from wait4) and each over the runs without the\n"
	"library: the median of the rounds' ratios (least..greatest), then the same\n"
	"ratio of wall times. --header prints the header for N runs. --csv appends the\n"
	"figures to FILE. Exit status 1 where a run fails, after saying how.\n";

enum { MOST_RUNS = 51, MOST_SIDES = 3 };

/* One way of running the command: LD_PRELOAD set to lib, or unset. */
struct side {
	const char *lib;
	double cpu[MOST_RUNS], wall[MOST_RUNS];
};

static double seconds(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

/* One run of argv under lib (NULL: no LD_PRELOAD); its CPU and wall
 * seconds, or -1 after saying why it failed. */
static int run_once(char **argv, const char *lib, double *cpu, double *wall)
{
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid < 0) {
		perror("with-without: fork");
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0)
			dup2(null, 0), dup2(null, 1);
		if (lib)
			setenv("LD_PRELOAD", lib, 1);
		else
			unsetenv("LD_PRELOAD");
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("with-without: wait4");
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "with-without: %s %s failed (%s %d)\n", argv[0], lib ? "with the library" : "without it",
			WIFEXITED(status) ? "exit status" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -1;
	}
	*cpu = seconds(ru.ru_utime) + seconds(ru.ru_stime);
	*wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of v[0..n) and its least and greatest, v left as it was. */
static double median_of(const double *v, int n, double *lo, double *hi)
{
	double s[MOST_RUNS];
	memcpy(s, v, (size_t)n * sizeof *v);
	qsort(s, (size_t)n, sizeof *s, cmp_double);
	*lo = s[0], *hi = s[n - 1];
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static void print_header(int runs, int other)
{
	printf("programs under the library: user + system CPU seconds of the program and its children (the\n"
	       "  rusage wait4 returns), the median of %d runs each way, in turns: with LD_PRELOAD=the library,\n"
	       "  without LD_PRELOAD%s, each after one untimed run;\n"
	       "  with / without: the median of the %d rounds' ratios of CPU time (least..greatest), then the\n"
	       "  same of wall time:\n",
	       runs, other ? ", with LD_PRELOAD=the other library" : "", runs);
	printf("  %-10s %9s %9s", "program", "with", "without");
	if (other)
		printf(" %9s", "other");
	printf("   %22s   %22s", "CPU, with / without", "wall, with / without");
	if (other)
		printf("   %22s", "CPU, other / without");
	printf("\n");
}

/* The row of the sides' figures, and their lines of csv. */
static void print_row(const char *name, struct side *sides, int n_sides, int runs, FILE *csv)
{
	double cpu[MOST_SIDES], wall[MOST_SIDES], r[MOST_RUNS], x, y;
	for (int j = 0; j < n_sides; j++)
		cpu[j] = median_of(sides[j].cpu, runs, &x, &y), wall[j] = median_of(sides[j].wall, runs, &x, &y);
	printf("  %-10s %8.3fs %8.3fs", name, cpu[0], cpu[1]);
	if (n_sides > 2)
		printf(" %8.3fs", cpu[2]);
	for (int j = 0; j < n_sides; j++) {
		if (j == 1)
			continue;
		/* The library's CPU and wall ratios, the other's CPU ratio. */
		for (int w = 0; w < (j == 0 ? 2 : 1); w++) {
			char cell[48];
			for (int k = 0; k < runs; k++)
				r[k] = w ? sides[j].wall[k] / sides[1].wall[k] : sides[j].cpu[k] / sides[1].cpu[k];
			double m = median_of(r, runs, &x, &y);
			snprintf(cell, sizeof cell, "%5.3f (%5.3f..%5.3f)", m, x, y);
			printf("   %22s", cell);
			if (csv)
				fprintf(csv, "%s,%s,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f\n", name, j ? "other" : "library",
					w ? "wall" : "cpu", runs, w ? wall[j] : cpu[j], w ? wall[1] : cpu[1], m, x, y);
		}
	}
	printf("\n");
}

/* The untimed runs, then the rounds, each with side k % n_sides first. */
static int time_sides(char **argv, struct side *sides, int n_sides, int runs)
{
	double cpu, wall;
	for (int j = 0; j < n_sides; j++)
		if (run_once(argv, sides[j].lib, &cpu, &wall))
			return -1;
	for (int k = 0; k < runs; k++)
		for (int j = 0; j < n_sides; j++) {
			struct side *s = &sides[(k + j) % n_sides];
			if (run_once(argv, s->lib, &s->cpu[k], &s->wall[k]))
				return -1;
		}
	return 0;
}

int main(int argc, char **argv)
{
	int runs = 5, header = 0, i = 1;
	const char *other = NULL, *csv_path = NULL;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		} else if ((strcmp(argv[i], "--runs") == 0 || strcmp(argv[i], "--header") == 0) && i + 1 < argc &&
			   atoi(argv[i + 1]) > 0 && atoi(argv[i + 1]) <= MOST_RUNS) {
			header |= strcmp(argv[i], "--header") == 0;
			runs = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--other") == 0 && i + 1 < argc) {
			other = argv[++i];
		} else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
			csv_path = argv[++i];
		} else {
			fprintf(stderr, "with-without: unknown or incomplete option '%s' (try --help)\n", argv[i]);
			return 2;
		}
	}
	if (header) {
		print_header(runs, other != NULL);
		return 0;
	}
	if (argc - i < 4 || strcmp(argv[i + 2], "--") != 0) {
		fputs(usage, stderr);
		return 2;
	}
	struct side sides[MOST_SIDES] = {{.lib = argv[i + 1]}, {.lib = NULL}, {.lib = other}};
	int n_sides = other ? 3 : 2;
	if (time_sides(argv + i + 3, sides, n_sides, runs))
		return 1;
	FILE *csv = csv_path ? fopen(csv_path, "a") : NULL;
	if (csv_path && !csv)
		perror(csv_path);
	print_row(argv[i], sides, n_sides, runs, csv);
	if (csv)
		fclose(csv);
	return 0;
}
