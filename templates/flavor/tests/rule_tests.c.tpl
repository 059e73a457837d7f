${banner("/*", "*/")}
@ -- The tests of every entry and strategy, joined from parts: the checks
@ -- (rule_checks.c.tpi), the entries' groups, the strategies' groups, the
@ -- dispatch under tables no entry holds, and the user copies.
@ local P = opts.prefix
@ local has, has_user_copies = {}, false
@ for _, r in ipairs(flavor.routines) do
@   has[r.name] = r
@   has_user_copies = has_user_copies or r.access
@ end
#include "rule_tests.h"

#include "../copy_rule.h"

#include <stdint.h>

${include("rule_checks.c.tpi")}

${include("entry_groups.c.tpi")}

${include("strategy_groups.c.tpi")}
@ if not target_name() then
${include("dispatch_groups.c.tpi")}
@ end
@ if has_user_copies then
${include("user_copy_groups.c.tpi")}

@ end
struct group {
	const char *name;
	void (*run)(struct ${P}test_ctx *t);
};

static const struct group groups[] = {
@ if has_user_copies then
	{"user_copies", group_user_copies},
@ end
@ for _, st in ipairs(flavor.strategies) do
@   if has["copy_" .. st.name] then
	{"copy_${st.name}", group_copy_${st.name}},
@   end
@ end
@ if not target_name() then
	{"align_head", group_align_head},
	{"dispatch", group_dispatch},
@   if has.memmove then
	{"memmove", group_memmove},
@   end
@   if flavor.isa_level > 0 then
	{"isa_cap", group_isa_cap},
@   end
@ end
	{"fallback", group_fallback},
@ for _, e in ipairs(db.entries) do
	{"${e.name}", group_${e.name}},
@ end
	{0, 0},
};

int ${P}rule_tests_run(struct ${P}test_ctx *t, const char *only)
{
	const struct group *g;
	int run = 0;
	for (g = groups; g->name; g++) {
		if (only && !same_text(only, g->name))
			continue;
		g->run(t);
		run++;
	}
	return run;
}
