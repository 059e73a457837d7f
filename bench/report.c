#include "report.h"

#include <string.h>

static int tty;

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void progress_on_tty(int on)
{
	tty = on;
}

void progress(const char *what, size_t done, size_t total)
{
	if (tty)
		fprintf(stderr, "\r  %s %zu of %zu", what, done, total);
	if (tty && done == total)
		fputc('\n', stderr);
}

static void row(const char *figure, double value, const char *target)
{
	printf("  %-62s %8.3f   %s\n", figure, value, target);
}

void print_targets(const struct figures *f, const char *flavor, const char *routines, int measured)
{
	int kernel = strcmp(flavor, "kernel") == 0;
	printf("targets, %s flavor (this CPU's rule runs the routines of %s, %s):\n", flavor, routines,
	       measured ? "a measured table" : "no evidence");
	printf("  %-62s %8s   %s\n", "figure", "here", "target");
	if (kernel) {
		/* What every core nobody measured runs, timed here whatever this
		 * core's rule. */
		row("unmeasured: worst uc_memcpy / rep movsb on the grid (baseline)", f->worst_base_vs_movsb,
		    "<= 1.02, or within the twins");
		row("  the twin pair's spread in the same run", f->worst_base_twin, "(the floor)");
	}
	if (measured) {
		row("measured: uc_memcpy / best body alone, 90th percentile, n < 64", f->p90_vs_best[0], "<= 1.20");
		row("measured: uc_memcpy / best body alone, 90th percentile, n >= 64", f->p90_vs_best[1], "<= 1.10");
	}
	if (kernel && measured) {
		row("measured: random sizes, uc_memcpy / rep movsb", f->random_vs_movsb,
		    "<= 1.00; <= 0.75 where small beats rep movsb at <= 32 B");
		row("measured: worst uc_memcpy / chosen body on the grid", f->worst_vs_chosen, "<= 1.10");
	} else if (!kernel && measured) {
		row("measured: random sizes, uc_memcpy / C library (vendored)", f->random_vs_libc, "<= 1.00");
		row("measured: worst uc_memcpy / C library at 64..256 B", f->worst_vs_libc_small, "<= 1.05");
	} else if (!kernel) {
		row("unmeasured: random sizes, uc_memcpy / C library (vendored)", f->random_vs_libc, "<= 1.00");
	}
	row(kernel ? "  beside it: sorted control, uc_memcpy / rep movsb" : "  beside it: sorted control, uc_memcpy / C library",
	    kernel ? f->sorted_vs_movsb : f->sorted_vs_libc, "(no target)");
	printf("  (the %s rows need %s; the drop-in library's row is build/preloaded's, which make\n"
	       "  bench runs last)\n\n",
	       measured ? "unmeasured user" : "measured", measured ? "a core nobody measured" : "a measured core");
}
