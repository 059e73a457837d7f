/* The fault tests' sweeps: many cases under one table each, checked by
 * fault_one (fault_tests.c). */
#include "fault_tests.h"

#include "copy_rule.h"
#include "../common/text_poke.h"

#include <stdio.h>
#include <string.h>

/* The user copies each measured table's compiled routines run (the rules
 * of the CPUID table that uc_rule_routines names neither "baseline" nor
 * "table"): faults served and refused, at lengths and distances across
 * the bands and classes, each direction. */
void measured_tables(void)
{
	static const size_t lengths[] = {8, 24, 40, 64, 100, 200, 300, 1000, 5000};
	static const unsigned int dists[] = {0, 1, 8, 16, 31, 32, 40, 64, 100, 2000, 4064, 4090, 4095};
	static const enum direction dirs[] = {TO_USER, FROM_USER};
	static const enum mode modes[] = {SERVE, REFUSE};
	const char *done[64];
	unsigned int n_done = 0, compiled = 0;
	const struct uc_rule *r;
	for (unsigned int i = 0; (r = uc_rule_at(i)) != NULL; i++) {
		rule_install_patched(r);
		const char *set = uc_rule_routines();
		int again = 0;
		for (unsigned int j = 0; j < n_done; j++)
			again |= strcmp(done[j], set) == 0;
		if (again || strcmp(set, "baseline") == 0 || strcmp(set, "table") == 0 || n_done == 64)
			continue;
		done[n_done++] = set;
		compiled++;
		char name[96], why[200], first[240] = "";
		int bad_cases = 0;
		for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++)
			for (size_t d = 0; d < sizeof dists / sizeof *dists; d++)
				for (size_t k = 0; k < 2; k++)
					for (size_t mm = 0; mm < 2; mm++)
						if (fault_one(dirs[k], dists[d], lengths[l], modes[mm], why, sizeof why) &&
						    !bad_cases++)
							snprintf(first, sizeof first, "%s, n=%zu d=%u %s: %s",
								 dirs[k] == TO_USER ? "copy_to_user" : "copy_from_user", lengths[l],
								 dists[d], modes[mm] == SERVE ? "served" : "refused", why);
		snprintf(name, sizeof name, "faults in %s's compiled user copies", set);
		result(name, bad_cases == 0, first);
	}
	rule_install_patched(uc_rule_lookup("            ", 0, 0)); /* no entry: the baseline */
	/* Where the build holds compiled sets (more than the baseline and the
	 * table dispatch), some row must run them, or the sweep tested nothing. */
	result("the measured tables' compiled user copies were swept", compiled > 0 || UC_N_ROUTINE_SETS == 2,
	       "no row of the CPUID table runs compiled routines: the sweep above tested nothing");
}

/* The copies of 32 bytes or less, small and small_flat (which the probe's
 * small trial may put in small's cells), each under a table that gives it
 * every such length: the user side across the boundary of pages 1 and 2
 * at every offset, so that a fault comes before, between or after the
 * body's other accesses, each length 2..32, each direction, served and
 * refused. A body that wrote r9, which holds the end of the destination,
 * or moved rdi would return the wrong count. */
void short_copies(void)
{
	static const int strategies[] = {UC_STRATEGY_SMALL, UC_STRATEGY_SMALL_FLAT};
	static const enum direction dirs[] = {TO_USER, FROM_USER};
	static const enum mode modes[] = {SERVE, REFUSE};
	for (size_t i = 0; i < sizeof strategies / sizeof *strategies; i++) {
		int s = strategies[i];
		struct uc_rule rule = {0, 0, 0, 4096, 0, 2,
				       {{32, {s, s, s, s, s}},
					{(size_t)-1, {UC_STRATEGY_FORWARD, UC_STRATEGY_FORWARD, UC_STRATEGY_FORWARD,
						      UC_STRATEGY_FORWARD, UC_STRATEGY_FORWARD}}},
				       UC_RULE_BASELINE, "", "", ""};
		rule_install_patched(&rule);
		char name[96], why[200], first[320] = "";
		int bad_cases = 0, cases = 0;
		for (size_t n = 2; n <= 32; n++)
			for (size_t k = 1; k < n; k++) /* k bytes on page 1 */
				for (size_t d = 0; d < 2; d++)
					for (size_t mm = 0; mm < 2; mm++) {
						user_start = 2 * PAGE - k;
						cases++;
						if (fault_one(dirs[d], 2000, n, modes[mm], why, sizeof why) && !bad_cases++)
							snprintf(first, sizeof first, "%s, n=%zu with %zu on the first page %s: %s",
								 dirs[d] == TO_USER ? "copy_to_user" : "copy_from_user", n, k,
								 modes[mm] == SERVE ? "served" : "refused", why);
					}
		user_start = PAGE + 40;
		snprintf(name, sizeof name, "faults in %s's user copies across a page, %d cases",
			 s == UC_STRATEGY_SMALL ? "small" : "small_flat", cases);
		result(name, bad_cases == 0, first);
	}
	rule_install_patched(uc_rule_lookup("            ", 0, 0)); /* no entry: the baseline */
}
