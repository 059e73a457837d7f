#include "resolve_print.h"

#include "util.h"

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

static const char *status_of(const struct resolved_rule *rr)
{
	if (rr->measured)
		return "measured";
	return rr->window_from ? "extrapolated" : "default";
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
		printf("flavor=%s entry=%s window=%d align_dst=%d status=%s source=%s\n", f, u ? u->name : "-",
		       rr.window, rr.align_dst, status_of(&rr), rr.window_from ? rr.window_from : "-");
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
