/* What the probe says of a flavor's run as it goes (run_report.h). */
#include "run_report.h"

#include "../derive/chosen.h"
#include "../derive/overlap.h"
#include "../derive/regime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The regime check's lengths printed at most; the evidence lists them all. */
#define REGIME_SHOWN 4

void print_rule(const char *what, const struct derived_rule *r)
{
	printf("%s: above_max %u, near_max %u, below_max %u, zero_mod %d, %d band%s; worst regret %.3f (%u bytes, "
	       "d = %u), mean %.4f\n",
	       what, r->above_max, r->near_max, r->below_max, r->zero_mod, r->n_bands, r->n_bands == 1 ? "" : "s",
	       r->worst_regret, r->worst_length, r->worst_distance, r->mean_regret);
	fflush(stdout);
}

/* The kept rule's copies for an overlap (derive/overlap.h), as the import
 * will derive them. */
int print_stand_ins(const struct probe_flavor *f, const struct timings *deciding, const struct timings *t,
		    const struct run_archive *a)
{
	struct derived_rule r;
	if (derive_chosen(deciding, &a->dispatch, &r)) {
		fprintf(stderr, "probe: %s\n", r.note);
		return -1;
	}
	size_t said = strlen(r.note);
	overlap_stand_ins(&a->overlap, t, f->moves, &r);
	if (strlen(r.note) > said)
		printf("%s:%s\n", f->name, r.note + said);
	return 0;
}

/* The points the passes timed faster at a longer length (derive/regime.h),
 * the lengths flagged at the most distances first: the harness timed them
 * apart, and the import's evidence lists them all. */
void print_regime(const struct timings *t)
{
	struct regime_check c;
	regime_run(t, &c);
	if (c.n == 0) {
		printf("  regime: no point timed faster at a longer length\n");
		regime_free(&c);
		return;
	}
	printf("  regime: %zu point%s timed faster at a longer length (artifacts to re-time)\n", c.n,
	       c.n == 1 ? "" : "s");
	struct regime_group *g;
	size_t n = regime_groups(&c, &g);
	for (size_t i = 0; i < n && i < REGIME_SHOWN; i++) {
		char text[256];
		regime_group_text(&c, &g[i], text, sizeof text);
		printf("    %s\n", text);
	}
	if (n > REGIME_SHOWN)
		printf("    and %zu more copies and lengths\n", n - REGIME_SHOWN);
	fflush(stdout);
	free(g);
	regime_free(&c);
}
