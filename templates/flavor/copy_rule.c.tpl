${banner("/*", "*/")}
@ -- The CPUID table and the rule's installer, joined from parts in
@ -- copy_rule/: the table and its lookup from CPUID, rule_force, the
@ -- installer of the table copy.asm reads (none with --target, whose
@ -- copy.asm holds the rule as immediates) and rule_describe.
@ local P = opts.prefix
@ local G = string.upper(P)
@ local function rule_literal(r, entry) return import("rule_c").literal(r, entry, P) end
#include "copy_rule.h"

#if ${G}COPY_RULE_STAMP != 0x${gen.stamp}UL
#error "copy_rule.h and copy_rule.c come from different uarchgen runs: vendor out/ as a whole"
#endif

/* Defined by the x86_64/copy.asm of the same run (see the stamp above). */
extern const unsigned char ${P}out_stamp_${gen.stamp};

${include("copy_rule/cpu_table.c.tpi")}

${include("copy_rule/force.c.tpi")}

@ if target_name() then
/* Built for ${target_name()} alone: copy.asm holds the table as a branch tree. */
int ${P}rule_runs(int strategy, ${P}size_t n)
{
	(void)n;
	return strategy;
}

void ${P}rule_install(const struct ${P}rule *rule)
{
	(void)rule;
	(void)*(const volatile unsigned char *)&${P}out_stamp_${gen.stamp};
}

int ${P}rule_patch(${P}text_poke poke)
{
	return poke ? 0 : -1;
}

const char *${P}rule_routines(void)
{
	return "${target_name()}";
}

const void *${P}rule_routine(unsigned int site)
{
	(void)site;
	return 0;
}

const struct ${P}rule *${P}rule_init(void)
{
	static const struct ${P}rule target = ${rule_literal(target_rule(target_name(), flavor.name), target_name())};
	${P}rule_install(&target);
	return &target;
}
@ else
${include("copy_rule/patch.c.tpi")}

${include("copy_rule/resolve.c.tpi")}

${include("copy_rule/install.c.tpi")}
@ end

${include("copy_rule/describe.c.tpi")}
