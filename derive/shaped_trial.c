/* The shaped trial of probe versions 9 to 25 (dispatch.h): its archive
 * line. */
#include "dispatch.h"

#include "../common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void shaped_trial_text(struct buf *b, const struct dispatch_run *d)
{
	const struct shaped_trial *v = &d->shaped;
	if (!v->started) {
		buf_printf(b, "shaped none\n");
		return;
	}
	buf_printf(b, "shaped %g %.2f %.2f %.2f %.2f %s\n", v->from, v->shaped.random, v->shaped.sorted,
		   v->baseline.random, v->baseline.sorted, v->kept ? "kept" : "not");
}

/* "MULTIPLE ": a candidate's multiple and one space; the rest of the line
 * after it, or NULL. */
static const char *candidate_then_space(const char *s, double *m)
{
	for (int i = 0; i < DISPATCH_CANDIDATES; i++) {
		char want[32];
		int n = snprintf(want, sizeof want, "%g ", candidate_multiples[i]);
		if (strncmp(s, want, (size_t)n) == 0) {
			*m = candidate_multiples[i];
			return s + n;
		}
	}
	return NULL;
}

int shaped_trial_parse(const char *line, struct dispatch_run *d, char *why, size_t why_size)
{
	static const char key[] = "shaped";
	size_t k = sizeof key - 1;
	struct shaped_trial *v = &d->shaped;
	memset(v, 0, sizeof *v);
	if (strncmp(line, key, k) == 0 && strcmp(line + k, " none") == 0) {
		if (d->chosen != CHOSE_BASELINE || !d->measured)
			return 0;
		snprintf(why, why_size, "'shaped none' where the baseline was chosen: a probe of this version runs the "
					"shaped trial there");
		return -1;
	}
	double x[4];
	const char *s = strncmp(line, key, k) == 0 && line[k] == ' ' ? candidate_then_space(line + k + 1, &v->from) : NULL;
	for (int i = 0; s && i < 4; i++)
		s = ticks_then_space(s, &x[i]);
	if (!s || (strcmp(s, "kept") != 0 && strcmp(s, "not") != 0)) {
		snprintf(why, why_size,
			 "expected 'shaped none' or 'shaped MULTIPLE SHAPED_RANDOM SHAPED_SORTED BASELINE_RANDOM "
			 "BASELINE_SORTED kept|not' (MULTIPLE a candidate's), found '%.80s'",
			 line);
		memset(v, 0, sizeof *v);
		return -1;
	}
	if (d->chosen != CHOSE_BASELINE) {
		snprintf(why, why_size, "a shaped trial where a candidate was chosen (%g): only a run that kept the "
					"baseline shapes one",
			 d->chosen);
		memset(v, 0, sizeof *v);
		return -1;
	}
	v->started = 1;
	v->shaped = (struct workload_ticks){x[0], x[1]};
	v->baseline = (struct workload_ticks){x[2], x[3]};
	v->kept = strcmp(s, "kept") == 0;
	return 0;
}
