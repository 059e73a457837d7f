/* Where a measurement goes: the entry CPUID selects (or a new one), the
 * evidence folder, and uarch.db, all or nothing. */
#ifndef PROBE_RECORD_H
#define PROBE_RECORD_H

#include "cpu.h"
#include "derive.h"
#include "table.h"

struct entry_choice {
	char name[32];
	int is_new; /* no entry's CPUID range holds this CPU: one is created */
};

/* Picks the entry to record into. name (may be NULL) is --name. Nonzero,
 * after printing why, when there is none or name contradicts CPUID. */
int record_choose_entry(const char *db_path, const struct cpu_info *cpu, const char *name, struct entry_choice *out);

struct run_facts {
	const struct cpu_info *cpu;
	const struct table *table;
	const struct derived_rule *rule;
	const char *flavor;
	char date[11];      /* YYYY-MM-DD, UTC */
	int passes, samples;
	double margin, overhead;
	int pass_window[16], pass_align[16];
	double median_spread, worst_spread;
};

/* Writes the evidence folder next to the database, then the raw rows and the
 * rule in one transaction. On any failure neither is left behind. */
int record_run(const char *db_path, const struct entry_choice *entry, const struct run_facts *run);

/* The summary's text, also printed by --dry-run. */
char *record_summary(const struct entry_choice *entry, const struct run_facts *run, const char *folder);

#endif
