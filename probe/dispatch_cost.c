/* What a band of the table costs a call (dispatch_cost.h). */
#include "dispatch_cost.h"

#include "../derive/model.h"
#include "placed.h"

#include <stdio.h>
#include <stdlib.h>

void measure_dispatch(const struct probe_flavor *f, struct dispatch_run *d)
{
	struct streams *s = streams_new();
	struct derived_rule *tables = calloc(DISPATCH_TABLES, sizeof *tables);
	if (!tables) {
		fprintf(stderr, "probe: out of memory\n");
		exit(1);
	}
	for (int i = 0; i < DISPATCH_TABLES; i++)
		dispatch_alternating_table(dispatch_bands[i], &tables[i]);
	/* A forced table first, so that an aligning strategy's routine
	 * aligns as a derived rule says (PROBE_ALIGN_DST). */
	f->force_strategy(BASELINE_STRATEGY);
	if (time_placed(f, s, tables, DISPATCH_TABLES, 1, NULL, 0, d->tables))
		exit(1);
	d->measured = 1;
	free(tables);
	streams_free(s);
}
