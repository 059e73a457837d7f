#include "resolve_print.h"

#include "../../common/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_number(const char *what, const char *s, long max, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < 0 || v > max) {
		fprintf(stderr, "uarchgen: lookup: %s '%s' is not a number in 0..%ld (0x.. or decimal)\n", what, s, max);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static const char *const status_names[] = {"baseline", "inherited", "measured"};

/* "0..63:forward,forward,forward,forward;64..:forward,down,forward,forward":
 * each band's lengths, then its strategy for the classes zero, above, below
 * and elsewhere. */
static void print_table(const struct rule *t)
{
	for (int i = 0; i < t->n_bands; i++) {
		const struct band *b = &t->bands[i];
		printf("%s%u..", i ? ";" : "", b->lo);
		if (b->hi != BAND_UNBOUNDED)
			printf("%u", b->hi);
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			printf("%c%s", c ? ',' : ':', strategy_catalogue[b->strategy[c]].name);
	}
}

int print_lookup(const struct model *m, const char *vendor, const char *family, const char *model,
		 const char *flavor)
{
	int fam, mod;
	if (strlen(vendor) != 12) {
		fprintf(stderr, "uarchgen: lookup: vendor '%s' is not a 12-character CPUID vendor string\n", vendor);
		return EXIT_USAGE;
	}
	if (parse_number("family", family, 270, &fam) || parse_number("model", model, 255, &mod))
		return EXIT_USAGE;
	int found = 0;
	for (size_t i = 0; i < m->n_flavors; i++) {
		const char *f = m->flavors[i].name;
		if (flavor && strcmp(flavor, f) != 0)
			continue;
		found = 1;
		struct resolved_rule rr;
		const struct uarch *u = model_lookup(m, vendor, fam, mod, f, &rr);
		printf("flavor=%s entry=%s status=%s source=%s above_max=%d near_max=%d below_max=%d zero_mod=%d "
		       "align_dst=%d table=",
		       f, u ? u->name : "-", status_names[rr.status], rr.source ? rr.source : "-", rr.table->above_max,
		       rr.table->near_max, rr.table->below_max, rr.table->zero_mod, rr.table->align_dst);
		print_table(rr.table);
		putchar('\n');
	}
	if (!found) {
		err("lookup: --flavor %s: the database has no such flavor (see: uarchgen flavors)", flavor);
		return EXIT_FAIL;
	}
	return 0;
}

int print_flavors(const struct model *m)
{
	for (size_t i = 0; i < m->n_flavors; i++)
		printf("%s %s %d\n", m->flavors[i].name, m->flavors[i].isa, m->flavors[i].red_zone);
	return 0;
}
