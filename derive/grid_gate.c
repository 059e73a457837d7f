/* The grid gate's line and verdict (dispatch.h). */
#include "grid_gate.h"

#include "../common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int grid_gate_slower_needed(int rounds)
{
	/* tail: the probability of k or more slower rounds of `rounds`, each
	 * slower with probability 1/2; C(rounds, k) / 2^rounds, from k =
	 * rounds down. */
	double term = ldexp(1.0, -rounds), tail = 0;
	for (int k = rounds; k >= 0; k--) {
		if (tail + term > GRID_GATE_TIE_ODDS)
			return k + 1;
		tail += term;
		term = term * k / (rounds - k + 1);
	}
	return 0;
}

double grid_gate_tie_p(int slower, int rounds)
{
	if (rounds <= 0 || slower <= 0)
		return 1;
	/* The upper tail from k = rounds down to slower: C(rounds, k) / 2^rounds. */
	double term = ldexp(1.0, -rounds), tail = 0;
	for (int k = rounds; k >= slower; k--) {
		tail += term;
		term = term * k / (rounds - k + 1);
	}
	return tail < 1 ? tail : 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double holm_threshold(double *p, size_t n, size_t family, double alpha)
{
	if (family < n)
		family = n;
	qsort(p, n, sizeof *p, cmp_double);
	double rejected = -1;
	for (size_t k = 0; k < n && p[k] <= alpha / (double)(family - k); k++)
		rejected = p[k];
	return rejected;
}

int grid_gate_loses(double ratio, int slower, int rounds, double noise)
{
	return ratio > 1 + noise && slower >= grid_gate_slower_needed(rounds);
}

int dispatch_keeps_table(const struct dispatch_run *d)
{
	if (d->searched)
		return search_kept(d) >= 0;
	return d->measured && (d->chosen != CHOSE_BASELINE || d->shaped.kept || d->classes.kept);
}

void grid_gate_text(struct buf *b, const struct dispatch_run *d)
{
	const struct grid_gate *g = &d->gate;
	if (!g->tried)
		buf_printf(b, "grid_gate none\n");
	else
		buf_printf(b, "grid_gate %.3f %u %u %s\n", g->worst, g->length, g->distance,
			   g->refused ? "refused" : "passed");
}

int grid_gate_parse(const char *line, struct dispatch_run *d, char *why, size_t why_size)
{
	struct grid_gate *g = &d->gate;
	memset(g, 0, sizeof *g);
	int kept = dispatch_keeps_table(d);
	if (strcmp(line, "grid_gate none") == 0) {
		if (!kept)
			return 0;
		snprintf(why, why_size, "'grid_gate none' where a table was kept: a probe of this version times it on the "
					"grid");
		return -1;
	}
	char verdict[16];
	int end = 0;
	if (sscanf(line, "grid_gate %lf %u %u %15s%n", &g->worst, &g->length, &g->distance, verdict, &end) != 4 ||
	    line[end] != '\0' || !(g->worst > 0) || (strcmp(verdict, "passed") != 0 && strcmp(verdict, "refused") != 0)) {
		snprintf(why, why_size,
			 "expected 'grid_gate none' or 'grid_gate WORST LENGTH DISTANCE passed|refused', found '%.80s'", line);
		memset(g, 0, sizeof *g);
		return -1;
	}
	if (!kept) {
		snprintf(why, why_size, "a grid gate where no table was kept: only a kept table is timed on the grid");
		memset(g, 0, sizeof *g);
		return -1;
	}
	g->tried = 1;
	g->refused = strcmp(verdict, "refused") == 0;
	return 0;
}
