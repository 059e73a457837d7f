/* What the generated rule table does on the CPU it runs on (under
 * tests/identities.sh, an emulated one): uc_rule_init reads CPUID and
 * installs a rule; the first line is that rule in the form of `uarchgen
 * lookup` (without its flavor field). Then it copies through uc_memcpy at
 * lengths and distances on both sides of every band and class edge of the
 * installed table, and checks each copy's bytes and that the dispatch takes
 * the strategy the table's cell names (or the one that stands in for it,
 * uc_rule_runs). Prints the first failures and "N passed, N failed". */
#include "copy_rule.h"
#include "../common/text_poke.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME(code, name, min_n, max_n, isa) [code] = name,
static const char *const strategy_names[UC_N_STRATEGIES] = {UC_STRATEGIES(NAME)};
#undef NAME

static const char *status_name(int status)
{
	switch (status) {
	case UC_RULE_MEASURED:
		return "measured";
	case UC_RULE_INHERITED:
		return "inherited";
	case UC_RULE_BASELINE:
		return "baseline";
	default:
		return "?";
	}
}

static void print_rule(const struct uc_rule *r)
{
	printf("entry=%s status=%s source=%s above_max=%u near_max=%u below_max=%u zero_mod=%u align_dst=%u table=",
	       r->entry[0] ? r->entry : "-", status_name(r->status), r->source[0] ? r->source : "-", r->above_max,
	       r->near_max, r->below_max, r->zero_mod, r->align_dst);
	uc_size_t lo = 0;
	for (unsigned int b = 0; b < r->n_bands; b++) {
		const struct uc_band *band = &r->bands[b];
		printf("%s%zu..", b ? ";" : "", (size_t)lo);
		if (band->hi != (uc_size_t)-1)
			printf("%zu", (size_t)band->hi);
		for (int c = 0; c < UC_N_CLASSES; c++)
			printf("%c%s", c ? ',' : ':', strategy_names[band->strategy[c]]);
		lo = band->hi + 1;
	}
	printf("\n");
}

/* The class of a distance, as the header says the routines test them. */
static int class_of(const struct uc_rule *r, unsigned int d)
{
	if (d % r->zero_mod == 0)
		return UC_CLASS_ZERO;
	if (d <= r->above_max)
		return UC_CLASS_ABOVE;
	if (d <= r->near_max)
		return UC_CLASS_NEAR;
	if (d >= 4096 - r->below_max)
		return UC_CLASS_BELOW;
	return UC_CLASS_ELSEWHERE;
}

static int cell(const struct uc_rule *r, uc_size_t n, unsigned int d)
{
	unsigned int b = 0;
	while (b + 1 < r->n_bands && n > r->bands[b].hi)
		b++;
	return r->bands[b].strategy[class_of(r, d)];
}

static unsigned long passed, failed;

#define MAX_N (1u << 17)

/* One copy of n bytes to a destination d bytes above the source, mod 4096. */
static void one(const struct uc_rule *r, unsigned char *arena, uc_size_t n, unsigned int d)
{
	unsigned char *src = arena + 4096;
	unsigned char *dst = src + MAX_N + 4096 + d;
	for (uc_size_t i = 0; i < n + 64; i++)
		src[i] = (unsigned char)(i * 131 + n), dst[i] = 0xa5;
	int want = uc_rule_runs(cell(r, n, d), n);
	int took = uc_copy_strategy(dst, src, n);
	void *ret = uc_memcpy(dst, src, n);
	const char *wrong = NULL;
	if (ret != dst)
		wrong = "did not return dst";
	else if (memcmp(dst, src, n) != 0)
		wrong = "wrong bytes";
	else if (dst[n] != 0xa5)
		wrong = "wrote past the end";
	else if (took != want)
		wrong = "the dispatch took another strategy";
	if (!wrong) {
		passed++;
		return;
	}
	if (failed++ < 10)
		printf("FAIL n=%zu d=%u: %s (the table says %s, it took %s)\n", (size_t)n, d, wrong,
		       strategy_names[want], UC_IS_STRATEGY(took) ? strategy_names[took] : "?");
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("usage: %s\nInstalls the rule this CPU's CPUID selects, prints it as uarchgen lookup does, and "
		       "checks copies at every band and class edge.\n",
		       argv[0]);
		return strcmp(argv[1], "--help") == 0 ? 0 : 2;
	}
	const struct uc_rule *r = uc_rule_init();
	rule_install_patched(r); /* and the entries run it */
	print_rule(r);
	unsigned char *arena = aligned_alloc(4096, 2 * MAX_N + 4 * 4096);
	if (!arena) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		return 1;
	}
	/* Distances on both sides of every class edge, and some elsewhere. */
	unsigned int distances[32], nd = 0;
	unsigned int edges[] = {0, r->above_max, r->near_max, 4096 - r->below_max, r->zero_mod, 2048};
	for (size_t e = 0; e < sizeof edges / sizeof *edges; e++)
		for (int k = -1; k <= 1; k++) {
			long d = (long)edges[e] + k;
			if (d >= 0 && d < 4096)
				distances[nd++] = (unsigned int)d;
		}
	distances[nd++] = 4095;
	/* Lengths on both sides of every band edge, and every short one. */
	for (uc_size_t n = 0; n <= 300; n++)
		for (unsigned int i = 0; i < nd; i++)
			one(r, arena, n, distances[i]);
	for (unsigned int b = 0; b + 1 < r->n_bands; b++)
		for (int k = 0; k <= 1; k++) {
			uc_size_t n = r->bands[b].hi + (uc_size_t)k;
			if (n > MAX_N)
				continue;
			for (unsigned int i = 0; i < nd; i++)
				one(r, arena, n, distances[i]);
		}
	free(arena);
	printf("%lu passed, %lu failed\n", passed, failed);
	return failed ? 1 : 0;
}
