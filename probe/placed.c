/* Tables timed at several places (placed.h). */
#include "placed.h"

#include "compiled.h"

#include <stdio.h>
#include <stdlib.h>

double median3(double a, double b, double c)
{
	return a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
}

int time_placed(const struct probe_flavor *f, struct streams *s, const struct derived_rule *tables, int n,
		int one_body, const copy_fn *extra, int n_extra, struct workload_ticks *out)
{
	_Static_assert(PLACES == 3, "time_placed takes the median of three");
	int copies = n * PLACES + n_extra;
	struct derived_rule *placed = calloc((size_t)n * PLACES, sizeof *placed);
	copy_fn *fn = calloc((size_t)copies, sizeof *fn);
	struct workload_ticks *t = calloc((size_t)copies, sizeof *t);
	struct compiled_tables c = {0};
	int rc = -1;
	if (!placed || !fn || !t) {
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
	for (int i = 0; i < n * PLACES; i++)
		fn[i] = c.entries[i];
	for (int j = 0; j < n_extra; j++)
		fn[n * PLACES + j] = extra[j];
	time_against(s, timing_reference(f), fn, copies, t, NULL);
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
	return rc;
}
