/* Where a measurement goes: the entry CPUID selects (or a new one), and
 * uarch.db together with the evidence folder, all or nothing. */
#ifndef PROBE_RECORD_H
#define PROBE_RECORD_H

#include "run.h"

/* Picks the entry to record into, as the generator's lookup would for this
 * CPU. name (may be NULL) is --name. Nonzero, after printing why, when there
 * is none or name contradicts CPUID. */
int record_choose_entry(const char *db_path, const struct cpu_info *cpu, const char *name, struct entry_choice *out);

/* Writes the evidence folder next to the database, then the raw rows and the
 * rule in one transaction. On any failure neither is left behind. */
int record_run(const char *db_path, const struct entry_choice *entry, const struct run_facts *run);

#endif
