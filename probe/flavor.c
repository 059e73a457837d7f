/* The probe's view of one flavor: built once per flavor against that
 * flavor's copy_rule.h; the Makefile then renames its symbols (flavor.h). */
#include "flavor.h"

#include "../run/derive.h"
#include "copy_rule.h"

#define ROUTINE(code, fn, isa) {code, fn, isa},
static const struct probe_routine routines[] = {UC_STRATEGY_ROUTINES(ROUTINE)};
#undef ROUTINE

static int machine_isa(void)
{
	return UC_ISA_ENABLED();
}

static void install_aligned_head(void)
{
	static const struct uc_rule aligned = {.zero_mod = 4096,
					       .align_dst = PROBE_ALIGN_DST,
					       .n_bands = 1,
					       .bands = {{(size_t)-1, {0}}},
					       .status = UC_RULE_BASELINE,
					       .entry = "",
					       .source = "",
					       .reason = ""};
	uc_rule_install(&aligned);
}

const struct probe_flavor probe_flavor = {UC_FLAVOR, routines, sizeof routines / sizeof *routines, machine_isa,
					  install_aligned_head};
