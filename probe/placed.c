/* Tables timed at several places (placed.h). */
#include "placed.h"

#include "compiled.h"

#include <stdio.h>
#include <stdlib.h>

double median3(double a, double b, double c)
{
	return a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
}

/* The extra copies are timed among the places, extra j after place j mod
 * PLACES, not after them all: a copy timed after every place drifts from
 * the same copy timed among them by more than the spread the check
 * judges by (measured: see
 * docs/notebook/measurements-2026-12.md#extra-copies-timed-among-the-places). */
void placed_order(int n, int n_extra, int *order)
{
	int next = 0;
	for (int k = 0; k < PLACES; k++) {
		for (int i = 0; i < n; i++)
			order[next++] = k * n + i;
		for (int j = k; j < n_extra; j += PLACES)
			order[next++] = n * PLACES + j;
	}
}

int time_placed(const struct probe_flavor *f, struct streams *s, const struct derived_rule *tables, int n,
		int one_body, const copy_fn *extra, int n_extra, struct workload_ticks *out)
{
	_Static_assert(PLACES == 3, "time_placed takes the median of three");
	int copies = n * PLACES + n_extra;
	struct derived_rule *placed = calloc((size_t)n * PLACES, sizeof *placed);
	copy_fn *fn = calloc((size_t)copies, sizeof *fn);
	struct workload_ticks *t = calloc((size_t)copies, sizeof *t), *timed = calloc((size_t)copies, sizeof *timed);
	int *order = calloc((size_t)copies, sizeof *order);
	struct compiled_tables c = {0};
	int rc = -1;
	if (!placed || !fn || !t || !timed || !order) {
		fprintf(stderr, "probe: out of memory\n");
		goto out;
	}
	/* Place k of every table before place k + 1 of any: a table's places
	 * lie n slots apart, and a slow spell of the machine meets them at
	 * different moments. */
	for (int k = 0; k < PLACES; k++)
		for (int i = 0; i < n; i++)
			placed[k * n + i] = tables[i];
	if (compile_tables(f, placed, n * PLACES, one_body, &c))
		goto out;
	placed_order(n, n_extra, order);
	for (int i = 0; i < copies; i++)
		fn[i] = order[i] < n * PLACES ? c.entries[order[i]] : extra[order[i] - n * PLACES];
	time_against(s, timing_reference(f), fn, copies, timed, NULL);
	for (int i = 0; i < copies; i++)
		t[order[i]] = timed[i];
	for (int i = 0; i < n; i++)
		out[i] = (struct workload_ticks){median3(t[i].random, t[n + i].random, t[2 * n + i].random),
						 median3(t[i].sorted, t[n + i].sorted, t[2 * n + i].sorted)};
	for (int j = 0; j < n_extra; j++)
		out[n + j] = t[n * PLACES + j];
	rc = 0;
out:
	compiled_tables_free(&c);
	free(placed);
	free(fn);
	free(t);
	free(timed);
	free(order);
	return rc;
}
