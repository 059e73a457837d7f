/* What one probe run found, and the entry it goes to: the database and the
 * evidence folder record the same facts, so both read them from here. */
#ifndef PROBE_RUN_H
#define PROBE_RUN_H

#include "cpu.h"
#include "derive.h"
#include "table.h"

#define MAX_RUN_PASSES 16

struct entry_choice {
	char name[32];
	int is_new; /* no entry's CPUID range holds this CPU: one is created */
};

struct run_facts {
	const struct cpu_info *cpu;
	const struct table *table;
	const struct derived_rule *rule;
	const char *flavor;
	char date[11];      /* YYYY-MM-DD, UTC */
	int passes, samples;
	double overhead;
	struct derived_rule pass_rule[MAX_RUN_PASSES]; /* derived from passes 1..k+1 */
	double median_spread, worst_spread;
};

#endif
