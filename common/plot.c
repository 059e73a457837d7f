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
		"set output (ARGC > 0 ? ARG1 : '%s')\n%s",
		png, script, width, height, png, body);
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
