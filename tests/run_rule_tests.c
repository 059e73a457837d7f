/* Runs the generated tests (out/<flavor>/tests/rule_tests.c) in user space against
 * the routines linked with it, and prints "N passed, N failed". */
#include "tests/rule_tests.h"

#include "common/text_poke.h" /* the repository root is on the include path */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct options {
	int verbose, first_failure;
};

static void report(void *cookie, const char *group, const char *test, int ok, const char *detail)
{
	const struct options *o = cookie;
	if (!ok) {
		printf("FAIL %s: %s: %s\n", group, test, detail);
		if (o->first_failure) {
			printf("stopped at the first failure\n");
			exit(1);
		}
	} else if (o->verbose) {
		printf("pass %s: %s\n", group, test);
	}
}

int main(int argc, char **argv)
{
	struct options o = {0};
	const char *only = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0) {
			o.verbose = 1;
		} else if (strcmp(argv[i], "-x") == 0) {
			o.first_failure = 1;
		} else if (strcmp(argv[i], "--help") == 0) {
			printf("usage: %s [-v] [-x] [GROUP]\n"
			       "Runs the tests generated from uarch.db against the linked copy routines.\n"
			       "-v names each test passed; -x stops at the first failure (exit 1).\n"
			       "GROUP is an entry name, copy_<strategy>, dispatch, fallback or another group\n"
			       "the generated file lists.\n",
			       argv[0]);
			return 0;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "%s: unknown option '%s' (try --help)\n", argv[0], argv[i]);
			return 2;
		} else {
			only = argv[i];
		}
	}
	struct uc_test_ctx t = {0};
	t.work = aligned_alloc(4096, UC_TEST_ARENA);
	t.expect = aligned_alloc(4096, UC_TEST_ARENA);
	if (!t.work || !t.expect) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		return 1;
	}
	t.report = report;
	t.poke = text_poke_user;
	t.cookie = &o;
	if (uc_rule_tests_run(&t, only) == 0) {
		fprintf(stderr, "%s: no test group named '%s'\n", argv[0], only);
		return 2;
	}
	printf("%lu passed, %lu failed\n", t.passed, t.failed);
	return t.failed ? 1 : 0;
}
