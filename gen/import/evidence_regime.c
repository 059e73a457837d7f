/* summary.md's section on the regime check (derive/regime.h): the points
 * that a copy of more bytes, at the same distance, timed faster, which the
 * run's harness timed apart and a later run is to time again. */
#include "evidence.h"

#include "../../common/util.h"
#include "../../derive/regime.h"

#include <stdio.h>
#include <stdlib.h>

/* The lengths listed at most; past them, how many more. */
#define SHOWN_GROUPS 20

void summary_regime(struct buf *b, const struct run_facts *run)
{
	struct regime_check c;
	regime_run(run->table, &c);
	buf_printf(b, "\n## Timed faster at a longer length\n\n");
	if (c.n == 0) {
		buf_printf(b, "None: of %zu pairs of points of rep movsb and the ymm and zmm copies of any length "
			      "(derive/regime.h), each at the next longer length the run timed, same copy, same "
			      "distance, none took less than %.2f of the shorter one's time.\n",
			   c.compared, REGIME_DROP);
		regime_free(&c);
		return;
	}
	struct regime_group *g;
	size_t n = regime_groups(&c, &g);
	buf_printf(b,
		   "A copy of more bytes takes no less time: where a run says otherwise, the harness timed the two "
		   "lengths apart, and the shorter point is to be timed again. Of %zu pairs of points of rep movsb "
		   "and the ymm and zmm copies of any length (derive/regime.h), each at the next longer length the "
		   "run timed, same copy, same distance, %zu took less than %.2f of the shorter one's time. By copy "
		   "and length, those flagged at the most distances first:\n\n",
		   c.compared, c.n, REGIME_DROP);
	for (size_t i = 0; i < n && i < SHOWN_GROUPS; i++) {
		char text[256];
		regime_group_text(&c, &g[i], text, sizeof text);
		buf_printf(b, "- %s\n", text);
	}
	if (n > SHOWN_GROUPS) {
		size_t points = 0;
		for (size_t i = SHOWN_GROUPS; i < n; i++)
			points += g[i].n;
		buf_printf(b, "- and %zu more copies and lengths, %zu points\n", n - SHOWN_GROUPS, points);
	}
	free(g);
	regime_free(&c);
}
