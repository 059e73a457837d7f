#include "derive.h"

#include "../gen/rule_limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Sorted distinct values of one column among rows of a strategy. */
static size_t distinct(const struct table *t, enum strategy s, int length_column, unsigned int *out)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (t->rows[i].strategy != s)
			continue;
		unsigned int v = length_column ? t->rows[i].length : t->rows[i].distance;
		size_t j;
		for (j = 0; j < n && out[j] != v; j++)
			;
		if (j == n)
			out[n++] = v;
	}
	qsort(out, n, sizeof *out, cmp_uint);
	return n;
}

/* 1: down beats forward at every length; 0: it does not; -1: not measured. */
static int wins(const struct table *t, const unsigned int *lengths, size_t n_lengths, unsigned int d, double margin)
{
	for (size_t i = 0; i < n_lengths; i++) {
		const struct row *f = table_find(t, FORWARD, lengths[i], d, ANY_MISALIGN);
		const struct row *g = table_find(t, DOWN, lengths[i], d, ANY_MISALIGN);
		if (!f || !g)
			return -1;
		if (!(f->ticks > g->ticks * (1.0 + margin)))
			return 0;
	}
	return 1;
}

static int derive_window(const struct table *t, double margin, struct derived_rule *out)
{
	unsigned int lengths[64], distances[4096];
	size_t n_lengths = distinct(t, FORWARD, 1, lengths);
	size_t n_distances = distinct(t, FORWARD, 0, distances);
	if (n_lengths == 0 || n_lengths > 64) {
		snprintf(out->note, sizeof out->note, "no forward measurements to derive a window from");
		return -1;
	}
	if (wins(t, lengths, n_lengths, 1, margin) < 0) {
		snprintf(out->note, sizeof out->note, "distance 1 was not measured for both copies at every length");
		return -1;
	}
	/* The window is where the run that starts at d = 1 ends; a measured
	 * distance that does not win ends it. Between coarse points the last
	 * winning distance is the bound: nothing beyond it was seen to win. */
	unsigned int last = 0;
	for (size_t i = 0; i < n_distances; i++) {
		unsigned int d = distances[i];
		if (d == 0)
			continue;
		int w = wins(t, lengths, n_lengths, d, margin);
		if (w < 0)
			continue;
		if (!w)
			break;
		last = d;
	}
	out->window = last ? (int)last + 1 : 0;
	out->run_first = out->run_last = 0;
	for (size_t i = 0; i < n_distances; i++) {
		unsigned int d = distances[i];
		int w = d ? wins(t, lengths, n_lengths, d, margin) : 0;
		if (w == 1 && !out->run_first)
			out->run_first = out->run_last = d;
		else if (w == 1 && out->run_first)
			out->run_last = d;
		else if (w == 0 && out->run_first)
			break;
	}
	if (out->window)
		snprintf(out->note, sizeof out->note,
			 "the descending copy beats rep movsb by more than %.0f%% at every length for d = 1..%u",
			 margin * 100, last);
	else if (out->run_first)
		snprintf(out->note, sizeof out->note,
			 "the descending copy wins at every length only for d = %u..%u, not from d = 1; the rule's "
			 "window starts at 1, so no copy goes down",
			 out->run_first, out->run_last);
	else
		snprintf(out->note, sizeof out->note,
			 "the descending copy never beats rep movsb by %.0f%% at every length", margin * 100);
	return 0;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* An alignment A counts when, at every length, the median misaligned copy
 * is slower than the slowest A-aligned one by the margin. Comparing against
 * the slowest aligned copy keeps a finer alignment from being credited for
 * a coarser one's gain (Intel's 32 bytes would otherwise look like 16). */
static void derive_align(const struct table *t, double margin, struct derived_rule *out)
{
	static const int candidates[] = {ALIGN_DST_VALUES}; /* candidates[0] is 0, no head */
	unsigned int lengths[64];
	size_t n_lengths = distinct(t, FORWARD_MISALIGNED, 1, lengths);
	out->align_dst = 0;
	out->align_gain = 1.0;
	if (n_lengths == 0 || n_lengths > 64)
		return;
	for (size_t c = 1; c < sizeof candidates / sizeof candidates[0]; c++) {
		int a = candidates[c];
		double gain = 1e30;
		for (size_t i = 0; i < n_lengths; i++) {
			double mis[64], worst_aligned = 0;
			size_t n_mis = 0, n_aligned = 0;
			for (unsigned int m = 0; m < 64; m++) {
				const struct row *r = NULL;
				for (size_t k = 0; k < t->n && !r; k++)
					if (t->rows[k].strategy == FORWARD_MISALIGNED && t->rows[k].length == lengths[i] &&
					    t->rows[k].misalign == m)
						r = &t->rows[k];
				if (!r)
					continue;
				if (m % (unsigned int)a == 0) {
					if (r->ticks > worst_aligned)
						worst_aligned = r->ticks;
					n_aligned++;
				} else {
					mis[n_mis++] = r->ticks;
				}
			}
			if (!n_aligned || !n_mis || worst_aligned <= 0) {
				gain = 0;
				break;
			}
			double g = median(mis, n_mis) / worst_aligned;
			if (g < gain)
				gain = g;
		}
		if (gain > 1.0 + margin) {
			out->align_dst = a;
			out->align_gain = gain;
			return;
		}
	}
}

int derive_rule(const struct table *t, double margin, struct derived_rule *out)
{
	memset(out, 0, sizeof *out);
	if (derive_window(t, margin, out))
		return -1;
	derive_align(t, margin, out);
	size_t len = strlen(out->note);
	if (out->align_dst)
		snprintf(out->note + len, sizeof out->note - len,
			 "; a destination aligned to %d bytes copies %.2fx as fast as a misaligned one", out->align_dst,
			 out->align_gain);
	else
		snprintf(out->note + len, sizeof out->note - len, "; no destination alignment gains %.0f%%",
			 margin * 100);
	return 0;
}
