/* summary.md's section on the search (from SEARCH_VERSION; derive/search.h):
 * the tables the model ranked, each one's check against every copy
 * forward, and which was kept. */
#include "evidence.h"

#include "../../derive/search.h"

#include "../../common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_row(struct buf *b, unsigned int flat_pairs, const struct search_check *c,
		      const struct search_entry *e)
{
	const char *strong = c->verdict == CHECK_KEPT ? "**" : "";
	char what[200], pairs[160];
	if (c->flat) {
		branch_light_say(flat_pairs, pairs, sizeof pairs);
		snprintf(what, sizeof what, "table %d with %s", c->rank + 1, pairs);
	} else if (e && e->classes)
		snprintf(what, sizeof what, "table 1's stall classes alone");
	else if (e && e->profile)
		snprintf(what, sizeof what, "fitted to the size profile");
	else if (e)
		snprintf(what, sizeof what, "fitted at %g times the band cost", e->multiple);
	else
		snprintf(what, sizeof what, "?");
	char model[16] = "-";
	if (e && !c->flat && isfinite(e->model.total))
		snprintf(model, sizeof model, "%.2f", e->model.total);
	buf_printf(b, "| %s%d%s | %s | %d | %s | %.2f | %.2f | %.2f | %.2f | %s%s%s |\n", strong, c->rank + 1, strong, what,
		   c->bands, model, c->table.random, c->table.sorted, c->baseline.random, c->baseline.sorted, strong,
		   c->verdict == CHECK_KEPT ? "kept" : c->verdict == CHECK_PASSED ? "passed" : "lost", strong);
}

void summary_search(struct buf *b, const struct run_facts *run)
{
	const struct dispatch_run *d = &run->dispatch;
	struct model_costs costs = model_costs_of(d);
	int user = strcmp(run->archive->flavor, "user") == 0, n = 0;
	buf_printf(b, "\nEach band past the first costs %.2f ticks a call: the slope of the last column. Both orders "
		      "make the same copies; the random one defeats the branches on size.\n\n"
		      "The search (derive/search.h): the fit derives a table from every pass with each split charged "
		      "0, 1 and 4 times that cost%s; the model ranks them by their time on random sizes (each call of "
		      "the stream walked through the table's tree, its copy's measured time, %.2f ticks a compare and "
		      "%.2f a misprediction as this run's trees measured them), the least first, within the noise the "
		      "one of fewer bands; the first's stall classes alone come last. Each, compiled as gen writes it, "
		      "was timed against every copy forward as it ships (%s) on both streams. Of those no slower than "
		      "it beyond the noise on either, the first ranked within the noise of the fastest on random sizes "
		      "is kept: the model ranks, the timing decides, since the model cannot see a copy's own branches, "
		      "which each point times at one length.\n\n",
		   dispatch_band_ticks(d),
		   d->profile_fit ? ", and one more with each length weighing the calls of the size profile it stands for "
				    "times its time, and each split what the model charges its compare and mispredictions"
				  : "",
		   costs.compare_ticks, costs.mispredict_ticks,
		   user ? "the C library's memmove behind one jump through a pointer, as a program's PLT reaches it"
		        : "the entry's own rep movsb");
	const struct search_entry *e = run->ranked;
	n = run->n_ranked;
	if (!d->n_checks)
		buf_printf(b, "No table derived copies other than every copy forward: nothing was checked.\n");
	else
		buf_printf(b, "| rank | table | bands | model | random | sorted | every copy forward: random | sorted | "
			      "verdict |\n|---|---|---|---|---|---|---|---|---|\n");
	for (int i = 0; i < d->n_checks; i++)
		check_row(b, run->flat_pairs, &d->checks[i], d->checks[i].rank < n ? &e[d->checks[i].rank] : NULL);
	if (d->n_checks && search_kept(d) < 0)
		buf_printf(b, "\nEvery table lost on the workload: every copy forward stays.\n");
}
