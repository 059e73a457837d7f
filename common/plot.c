#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int plot_available(void)
{
	const char *path = getenv("PATH");
	char dir[1024], full[1100];
	while (path && *path) {
		size_t n = strcspn(path, ":");
		snprintf(dir, sizeof dir, "%.*s", (int)(n < 1000 ? n : 1000), path);
		snprintf(full, sizeof full, "%s/gnuplot", dir[0] ? dir : ".");
		if (access(full, X_OK) == 0)
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

/* The script takes its output from ARG1 when there is one (gnuplot -c), so
 * the copy kept beside the image names the image itself. */
static int run_gnuplot(const char *who, const char *dir, const char *script, const char *png, const char *output)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (chdir(dir) != 0)
			_exit(127);
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 1);
		execlp("gnuplot", "gnuplot", "-c", script, output, (char *)NULL);
		_exit(127);
	}
	int status;
	if (pid < 0)
		return -1;
	/* A Ctrl-C reaches gnuplot as well; wait for it to end rather than
	 * leave it writing into a folder that is about to be removed. */
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		fprintf(stderr, "%s: gnuplot is missing (apt-get install gnuplot-nox, or make deps)\n", who);
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "%s: gnuplot could not draw %s/%s from %s\n", who, dir, png, script);
		return -1;
	}
	return 0;
}

/* Lengths on a log2 axis, every fourth power of two, labelled as a reader
 * writes them: gnuplot's own labels print 2^20 as 1.04858e+06. */
const char plot_length_xtics[] =
	"set xtics (\"1\" 1, \"4\" 4, \"16\" 16, \"64\" 64, \"256\" 256, \"1 KiB\" 1024, \"4 KiB\" 4096, "
	"\"16 KiB\" 16384, \"64 KiB\" 65536, \"256 KiB\" 262144, \"1 MiB\" 1048576, \"4 MiB\" 4194304, "
	"\"16 MiB\" 16777216, \"64 MiB\" 67108864)\n";

/* Twelve line colours that a reader tells apart, one per strategy code up
 * to 11: gnuplot's default eight repeat from the ninth, and its 5th and
 * 6th, and 3rd and 6th, are near each other. */
static const char line_colours[] =
	"set linetype 1 lc rgb '#4e79a7'\n" /* blue */
	"set linetype 2 lc rgb '#f28e2b'\n" /* orange */
	"set linetype 3 lc rgb '#e15759'\n" /* red */
	"set linetype 4 lc rgb '#59a14f'\n" /* green */
	"set linetype 5 lc rgb '#b07aa1'\n" /* purple */
	"set linetype 6 lc rgb '#76b7b2'\n" /* teal */
	"set linetype 7 lc rgb '#edc948'\n" /* yellow */
	"set linetype 8 lc rgb '#000000'\n" /* black */
	"set linetype 9 lc rgb '#ff9da7'\n" /* pink */
	"set linetype 10 lc rgb '#9c755f'\n" /* brown */
	"set linetype 11 lc rgb '#17becf'\n" /* cyan */
	"set linetype 12 lc rgb '#8c8c8c'\n" /* grey */
	"set linetype cycle 12\n";

int plot_png(const char *who, const char *dir, const char *script, const char *png, int width, int height,
	     const char *body)
{
	char path[1400], tmp[1400], output[300];
	snprintf(path, sizeof path, "%s/%s", dir, script);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		return -1;
	}
	fprintf(f,
		"# Draws %s: gnuplot %s\n"
		"set terminal pngcairo size %d,%d font ',9' noenhanced\n"
		"set output (ARGC > 0 ? ARG1 : '%s')\n%s%s",
		png, script, width, height, png, line_colours, body);
	if (fclose(f) != 0) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		return -1;
	}
	snprintf(output, sizeof output, "%s.tmp.%ld", png, (long)getpid());
	snprintf(tmp, sizeof tmp, "%s/%s", dir, output);
	snprintf(path, sizeof path, "%s/%s", dir, png);
	int rc = run_gnuplot(who, dir, script, png, output);
	if (!rc && rename(tmp, path) != 0) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		rc = -1;
	}
	if (rc)
		unlink(tmp);
	return rc;
}
