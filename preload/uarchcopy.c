/* libuarchcopy: the user flavor's copies as the C library's memcpy and
 * memmove. LD_PRELOAD=build/libuarchcopy.so puts them under a program
 * unchanged; build/libuarchcopy.a links them in statically.
 *
 * The rule is installed once, by a constructor, so a call runs the table
 * with no lookup. Before that (another library's constructor may copy
 * first) the table is the baseline's, every copy one rep movsb, which is
 * correct on every CPU. memcpy is memmove here: a program that overlaps a
 * memcpy keeps working, for the price of one compare.
 *
 * Environment, read once at load:
 *   UARCHCOPY_ISA=gpr|avx2|avx512   the widest instructions the copies may use
 *   UARCHCOPY_STRATEGY=NAME         every copy takes strategy NAME where it can
 *                                   copy the length, forward elsewhere (tests)
 *   UARCHCOPY_REPORT=1              write the installed rule to stderr */
#include "copy_rule.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void say(const char *a, const char *b, const char *c)
{
	const char *parts[] = {"libuarchcopy: ", a, b, c, "\n"};
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
		if (parts[i] && write(2, parts[i], strlen(parts[i])) < 0)
			return;
}

static const struct {
	int code;
	const char *name;
} strategies[] = {
#define ROW(code, name, min_n, max_n, isa) {code, name},
	UC_STRATEGIES(ROW)
#undef ROW
};

/* One strategy in every class, in the lengths it copies; forward elsewhere
 * (uc_rule_force). The table keeps the CPU's entry and says it was
 * forced, so that the report does not pass it off as the CPU's rule or the
 * baseline. */
static int forced_table(const char *name, const struct uc_rule *cpu_rule, struct uc_rule *r)
{
	static char reason[64];
	size_t i = 0;
	while (i < sizeof strategies / sizeof *strategies && strcmp(strategies[i].name, name) != 0)
		i++;
	if (i == sizeof strategies / sizeof *strategies)
		return -1;
	strcpy(reason, "UARCHCOPY_STRATEGY=");
	strncat(reason, strategies[i].name, sizeof reason - strlen(reason) - 1);
	/* 64: forward_aligned's head, where it is the one forced. */
	if (uc_rule_force(r, strategies[i].code, 64, reason) != 0)
		return -1;
	r->entry = cpu_rule->entry;
	return 0;
}

__attribute__((constructor)) static void install(void)
{
	static const char *const isa_names[] = {"gpr", "avx2", "avx512"};
	const char *isa = getenv("UARCHCOPY_ISA"), *strategy = getenv("UARCHCOPY_STRATEGY");
	const struct uc_rule *rule;
	static struct uc_rule forced;
	if (isa && *isa) {
		int k = 0;
		while (k < 3 && strcmp(isa, isa_names[k]) != 0)
			k++;
		if (k < 3)
			uc_rule_limit_isa(k);
		else
			say("UARCHCOPY_ISA=", isa, ": not gpr, avx2 or avx512; ignored");
	}
	rule = uc_rule_init();
	if (strategy && *strategy) {
		if (forced_table(strategy, rule, &forced) == 0)
			uc_rule_install(rule = &forced);
		else
			say("UARCHCOPY_STRATEGY=", strategy, ": no such strategy; the CPU's rule stays");
	}
	if (getenv("UARCHCOPY_REPORT")) {
		char line[1024];
		uc_rule_describe(line, sizeof line, rule);
		say(line, NULL, NULL);
	}
}

void *memcpy(void *dst, const void *src, size_t n)
{
	return uc_memmove(dst, src, n);
}

void *memmove(void *dst, const void *src, size_t n)
{
	return uc_memmove(dst, src, n);
}

/* The checked forms _FORTIFY_SOURCE calls: a copy past the object's end is
 * the C library's to report. */
extern void __chk_fail(void) __attribute__((noreturn));

void *__memcpy_chk(void *dst, const void *src, size_t n, size_t dst_size)
{
	if (n > dst_size)
		__chk_fail();
	return uc_memmove(dst, src, n);
}

void *__memmove_chk(void *dst, const void *src, size_t n, size_t dst_size)
{
	if (n > dst_size)
		__chk_fail();
	return uc_memmove(dst, src, n);
}
