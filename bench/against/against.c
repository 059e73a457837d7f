/* make bench-against BASE=REV: the routines out/ ships now against those
 * out/ shipped at revision REV, linked into one program
 * (bench/against/against.sh renames REV's symbols base_...), each measured
 * rule's routine set installed and patched in both and each timed in
 * turns with rep movsb (uc_copy_forward) on the random-size workload and
 * its sorted control, never the two in turns with each other (probe/
 * streams.h, time_against, says why). A change to the generated code is
 * judged so: two runs of make bench differ by the machine's drift more
 * than by most changes of layout (measured: see
 * docs/notebook/comment-figures-2026-12.md#each-copy-timed-in-turns-with-rep-movsb).
 * It reports; it asserts nothing about speed.
 * usage: against REV   (built by bench/against/against.sh, one per flavor) */
#include "copy_rule.h"
#include "../../common/text_poke.h"
#include "../../common/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* REV's rule table, install, patch and copy, renamed. Its struct uc_rule
 * may be laid out otherwise than this revision's, so it is only passed
 * back, and its entry read from its log line. */
const void *base_uc_rule_at(unsigned int i);
void base_uc_rule_install(const void *rule);
int base_uc_rule_patch(uc_text_poke poke);
const char *base_uc_rule_routines(void);
uc_size_t base_uc_rule_describe(char *buf, uc_size_t size, const void *rule);

/* The copy a caller of the flavor makes: memmove where the flavor has one
 * (the drop-in library serves memcpy with it), else memcpy. */
#ifdef UC_HAS_MEMMOVE
void *base_uc_memmove(void *dst, const void *src, size_t n);
#define COPY uc_memmove
#define BASE_COPY base_uc_memmove
#else
void *base_uc_memcpy(void *dst, const void *src, size_t n);
#define COPY uc_memcpy
#define BASE_COPY base_uc_memcpy
#endif

enum { ROUNDS = 61 };

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v)
{
	qsort(v, ROUNDS, sizeof *v, cmp_double);
	return v[ROUNDS / 2];
}

/* REV's measured rule of this entry, or NULL: the one whose log line ends
 * "(ENTRY, measured)". */
static const void *base_rule_of(const char *entry)
{
	char line[512], want[64];
	snprintf(want, sizeof want, "(%s, measured)", entry);
	for (unsigned int i = 0; base_uc_rule_at(i); i++) {
		base_uc_rule_describe(line, sizeof line, base_uc_rule_at(i));
		if (strstr(line, want))
			return base_uc_rule_at(i);
	}
	return NULL;
}

/* fn timed in turns with rep movsb over ROUNDS rounds, each first in turn:
 * the median of fn's per-round ratio to it, and rep movsb's median ticks a
 * call in *movsb. */
static double against_movsb(copy_fn fn, const struct call *calls, unsigned char *dst, const unsigned char *src,
			    double *movsb)
{
	double ratio[ROUNDS], reference[ROUNDS];
	for (int k = 0; k < ROUNDS; k++) {
		double t[2];
		for (int j = 0; j < 2; j++) {
			int f = (j + k) % 2;
			t[f] = time_calls(f ? fn : uc_copy_forward, dst, src, calls, WORKLOAD_CALLS) / WORKLOAD_CALLS;
		}
		ratio[k] = t[1] / t[0], reference[k] = t[0];
	}
	*movsb = median(reference);
	return median(ratio);
}

/* The copy now, REV's and the copy now again, one after another, each
 * timed in turns with rep movsb: two trees timed in turns with each other
 * measure their pairing as well: two identical trees so timed can run far
 * apart (measured: see
 * docs/notebook/comment-figures-2026-12.md#each-copy-timed-in-turns-with-rep-movsb).
 * Prints each one's time (its ratio to rep movsb times rep movsb's mean
 * time) and the ratios: now over REV, and now over itself (the timing's
 * own spread; the same code at other addresses spreads more: REV = HEAD
 * shows it). */
static void compare(const char *what, const char *rev, const struct call *calls, unsigned char *dst,
		    const unsigned char *src)
{
	copy_fn fn[3] = {COPY, BASE_COPY, COPY};
	double ratio[3], movsb[3];
	for (int f = 0; f < 3; f++)
		ratio[f] = against_movsb(fn[f], calls, dst, src, &movsb[f]);
	double reference = (movsb[0] + movsb[1] + movsb[2]) / 3;
	printf("    %s: now %.2f ticks a call, at %s %.2f: %.3fx (now against itself %.3fx; each timed in turns with "
	       "rep movsb, %.2f)\n",
	       what, ratio[0] * reference, rev, ratio[1] * reference, ratio[0] / ratio[1], ratio[0] / ratio[2],
	       reference);
}

int main(int argc, char **argv)
{
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: against REV (run by bench/against/against.sh)\n");
		return 2;
	}
	static unsigned char src[WORKLOAD_REGION], dst[WORKLOAD_REGION];
	static struct call calls[WORKLOAD_CALLS], sorted[WORKLOAD_CALLS];
	random_calls(calls, WORKLOAD_CALLS, WORKLOAD_REGION, 1);
	memcpy(sorted, calls, sizeof calls);
	sort_calls(sorted, WORKLOAD_CALLS);
	const char *seen[64];
	int n_seen = 0;
	const struct uc_rule *r;
	for (unsigned int row = 0; (r = install_next_set(&row, seen, &n_seen)) != NULL;) {
		const char *set = seen[n_seen - 1];
		const void *base = base_rule_of(r->entry);
		if (!base) {
			printf("  %s, routines %s: %s has no measured rule for it\n", r->entry, set, argv[1]);
			continue;
		}
		base_uc_rule_install(base);
		if (base_uc_rule_patch(text_poke_user) != 0) {
			fprintf(stderr, "against: %s's rule_patch refuses its own patch list\n", argv[1]);
			return 1;
		}
		printf("  %s, routines %s (at %s: %s):\n", r->entry, set, argv[1], base_uc_rule_routines());
		compare("random sizes", argv[1], calls, dst, src);
		compare("sorted control", argv[1], sorted, dst, src);
	}
	if (n_seen == 0)
		printf("  no measured rule runs a routine set of its own at this CPU's isa\n");
	return 0;
}
