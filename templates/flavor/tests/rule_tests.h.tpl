${banner("/*", "*/")}
@ local P = opts.prefix
@ local G = string.upper(P)
/*
 * Tests generated from the database: one group per entry, plus the
 * descending copy on its own and the vendor fallbacks. Freestanding C99, so
 * that the same tests run in a user-space harness and in ring 0.
 */
#ifndef ${P}rule_tests_h
#define ${P}rule_tests_h

/* As in copy_rule.h: a prefix that differs only in case would share its macros. */
#ifdef ${G}TEST_ARENA
#error "rule_tests.h of prefix ${P}: ${G}TEST_ARENA is defined already, by the rule_tests.h of a prefix that differs from ${P} only in case; their macros would clash: generate one of them with another prefix"
#endif

#include <stddef.h>

/* Bytes each arena needs: a 64 KiB copy up to 4095 bytes above a 64 KiB
 * source, with guard bytes on both sides. */
#define ${G}TEST_ARENA (160u * 1024u)

struct ${P}test_ctx {
	unsigned char *work;   /* ${G}TEST_ARENA bytes, 64-byte aligned */
	unsigned char *expect; /* ${G}TEST_ARENA bytes, for the reference copy */
	/* Called once per test; detail names the first failing case. */
	void (*report)(void *cookie, const char *group, const char *test, int ok, const char *detail);
	void *cookie;
	unsigned long passed, failed;
	/* Writes code (copy_rule.h's text_poke): the tests patch the entries
	 * to run each rule they install. */
	void (*poke)(void *addr, const void *bytes, size_t len);
};

/* Runs every group, or only the one named (NULL: all). Returns the number
 * of groups run. */
int ${P}rule_tests_run(struct ${P}test_ctx *t, const char *only);

#endif
