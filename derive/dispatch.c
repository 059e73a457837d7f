#include "dispatch.h"
#include "grid.h"
#include "repair.h"
#include "search.h"

#include "../common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int dispatch_bands[DISPATCH_TABLES] = {1, 2, 4, 8};
/* 0 charges the flat BAND_PRICE only, as the derivation did before it
 * measured the dispatch; 4 is a table that splits only for large gains. */
const double candidate_multiples[DISPATCH_CANDIDATES] = {0, 1, 4};

/* The slope over the band counts of the random stream's time less the
 * sorted control's (of_random), or of the sorted control's alone; 0
 * where it falls. */
static double band_slope(const struct dispatch_run *d, int of_random)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = DISPATCH_TABLES;
	for (int i = 0; i < DISPATCH_TABLES; i++) {
		double x = dispatch_bands[i], y = of_random ? d->tables[i].random - d->tables[i].sorted : d->tables[i].sorted;
		sx += x, sy += y, sxx += x * x, sxy += x * y;
	}
	double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
	return slope > 0 ? slope : 0;
}

double dispatch_band_ticks(const struct dispatch_run *d)
{
	return band_slope(d, 1);
}

double dispatch_predicted_band_ticks(const struct dispatch_run *d)
{
	return band_slope(d, 0);
}

double dispatch_start(const struct dispatch_run *d)
{
	return d->chosen != CHOSE_BASELINE ? d->chosen : d->shaped.started ? d->shaped.from : CHOSE_BASELINE;
}

struct derive_cost dispatch_cost(const struct dispatch_run *d)
{
	if (!d || !d->measured)
		return (struct derive_cost){.band_ticks = DERIVE_BAND_TICKS_DEFAULT, .multiple = 1};
	double start = dispatch_start(d);
	struct derive_cost c = {.band_ticks = dispatch_band_ticks(d),
				.multiple = start == CHOSE_BASELINE ? 1 : start,
				.measured = 1,
				.against_reference = d->against_reference};
	for (int i = 0; i < d->n_trials && c.n_unsplit < DERIVE_UNSPLIT_MAX; i++)
		if (d->trials[i].merged)
			c.unsplit[c.n_unsplit++] = d->trials[i].range;
	return c;
}

void derived_baseline(struct derived_rule *r)
{
	memset(r, 0, sizeof *r);
	r->zero_mod = 4096;
	r->n_bands = 1;
	r->bands[0].hi = BAND_UNBOUNDED;
	for (int c = 0; c < N_DISTANCE_CLASSES; c++)
		r->bands[0].strategy[c] = BASELINE_STRATEGY;
}

void dispatch_text(struct buf *b, const struct dispatch_run *d, int candidates)
{
	for (int i = 0; i < DISPATCH_TABLES; i++)
		buf_printf(b, "dispatch %d %.2f %.2f\n", dispatch_bands[i], d->tables[i].random, d->tables[i].sorted);
	if (!candidates)
		return;
	for (int i = 0; i < DISPATCH_CANDIDATES; i++)
		buf_printf(b, "candidate %g %.2f %.2f\n", candidate_multiples[i], d->candidates[i].random,
			   d->candidates[i].sorted);
	buf_printf(b, "baseline %.2f %.2f\n", d->baseline.random, d->baseline.sorted);
	if (d->chosen == CHOSE_BASELINE)
		buf_printf(b, "chosen baseline\n");
	else
		buf_printf(b, "chosen %g\n", d->chosen);
}

const char *ticks_then_space(const char *s, double *v)
{
	char *end;
	*v = strtod(s, &end);
	if (end == s || *end != ' ' || !isfinite(*v) || *v <= 0 || *v > 1e9)
		return NULL;
	return end + 1;
}

/* "RANDOM SORTED": two positive numbers of ticks, and nothing after. */
static int two_times(const char *s, struct workload_ticks *w)
{
	char *end;
	w->random = strtod(s, &end);
	if (end == s || *end != ' ')
		return -1;
	s = end + 1;
	w->sorted = strtod(s, &end);
	return end == s || *end || !isfinite(w->random) || !isfinite(w->sorted) || w->random <= 0 ||
	       w->sorted <= 0 || w->random > 1e9 || w->sorted > 1e9;
}

/* "KEY NUMBER REST": REST, where the number is want; NULL otherwise. */
static const char *keyed_number(const char *line, const char *key, double want)
{
	size_t k = strlen(key);
	if (strncmp(line, key, k) != 0 || line[k] != ' ')
		return NULL;
	char *end;
	double v = strtod(line + k + 1, &end);
	return end != line + k + 1 && *end == ' ' && v == want ? end + 1 : NULL;
}

int dispatch_parse(const char *line, int k, struct dispatch_run *d, char *why, size_t why_size)
{
	char want[64];
	const char *rest = NULL;
	struct workload_ticks *w = NULL;
	if (k < DISPATCH_TABLES) {
		snprintf(want, sizeof want, "dispatch %d RANDOM SORTED", dispatch_bands[k]);
		rest = keyed_number(line, "dispatch", dispatch_bands[k]), w = &d->tables[k];
	} else if (k < DISPATCH_TABLES + DISPATCH_CANDIDATES) {
		double m = candidate_multiples[k - DISPATCH_TABLES];
		snprintf(want, sizeof want, "candidate %g RANDOM SORTED", m);
		rest = keyed_number(line, "candidate", m), w = &d->candidates[k - DISPATCH_TABLES];
	} else if (k == DISPATCH_TABLES + DISPATCH_CANDIDATES) {
		snprintf(want, sizeof want, "baseline RANDOM SORTED");
		rest = strncmp(line, "baseline ", 9) == 0 ? line + 9 : NULL, w = &d->baseline;
	} else {
		d->chosen = strcmp(line, "chosen baseline") == 0 ? CHOSE_BASELINE : 0;
		for (int i = 0; i < DISPATCH_CANDIDATES && d->chosen != CHOSE_BASELINE; i++) {
			snprintf(want, sizeof want, "chosen %g", candidate_multiples[i]);
			if (strcmp(line, want) == 0)
				d->chosen = candidate_multiples[i], rest = line;
		}
		if (d->chosen == CHOSE_BASELINE || rest) {
			d->measured = 1;
			return 0;
		}
		snprintf(why, why_size, "expected 'chosen baseline' or 'chosen M', M a candidate's multiple, found '%.40s'",
			 line);
		return -1;
	}
	if (rest && two_times(rest, w) == 0)
		return 0;
	snprintf(why, why_size, "expected '%s' (ticks per call, positive), found '%.40s'", want, line);
	return -1;
}
