/* The probe's derivation on recorded tables (tests/fixtures/, written by
 * make_fixtures.lua): no timing, so the expected rule is exact. */
#include "derive.h"
#include "table.h"

#include <stdio.h>
#include <string.h>

static int passed, failed;

static void expect(const char *csv, int window, int align_dst, const char *note_part)
{
	char path[256];
	struct table t = {0};
	struct derived_rule r;
	snprintf(path, sizeof path, "tests/fixtures/%s", csv);
	if (table_read_csv(&t, path) || derive_rule(&t, DERIVE_MARGIN, &r)) {
		failed++;
		printf("FAIL %s: could not derive a rule\n", csv);
	} else if (r.window != window || r.align_dst != align_dst || (note_part && !strstr(r.note, note_part))) {
		failed++;
		printf("FAIL %s: got window %d align_dst %d (%s), want window %d align_dst %d%s%s\n", csv, r.window,
		       r.align_dst, r.note, window, align_dst, note_part ? " and a note with: " : "",
		       note_part ? note_part : "");
	} else {
		passed++;
	}
	table_free(&t);
}

static void expect_rejected(const char *csv)
{
	char path[256];
	struct table t = {0};
	snprintf(path, sizeof path, "tests/fixtures/%s", csv);
	if (table_read_csv(&t, path) == 0) {
		failed++;
		printf("FAIL %s: a malformed table was accepted\n", csv);
	} else {
		passed++;
	}
	table_free(&t);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("usage: %s\nThe probe's derivation on the recorded tables in tests/fixtures/; prints N passed, N failed.\n", argv[0]);
		return strcmp(argv[1], "--help") == 0 ? 0 : 2;
	}
	expect("zen2_like.csv", 32, 0, "d = 1..31");
	expect("no_stall.csv", 0, 32, "never beats");
	expect("noisy.csv", 32, 0, NULL);
	expect("late_stall.csv", 0, 0, "only for d = 8..31, not from d = 1");
	expect("wide_stall.csv", 449, 0, "d = 1..448");
	expect_rejected("malformed.csv");
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
