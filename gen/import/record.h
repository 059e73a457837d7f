/* Where a measurement goes: the entry CPUID selects (or a new one), and
 * uarch.db together with the evidence folder, all or nothing. */
#ifndef UARCHGEN_RECORD_H
#define UARCHGEN_RECORD_H

#include "run_facts.h"

/* Picks the entry to record into, as the generator's lookup would for this
 * CPU, from m, the database at db_path as the import read it. name (may be
 * NULL) is --name. Nonzero, after printing why, when there is none or name
 * contradicts CPUID. */
struct model;
int record_choose_entry(const char *db_path, const struct model *m, const struct cpu_info *cpu, const char *name,
			struct entry_choice *out);

/* 1, with the run's id in id, when the archive of this checksum is recorded. */
int record_imported_as(const char *db_path, const char *sha256, char *id, size_t size);

/* Writes the evidence folder next to the database, then the run's row and
 * the rule in one transaction. On any failure neither is left behind.
 * Returns 0 recorded, 1 already recorded (nothing changed), -1 failed. */
int record_run(const char *db_path, const struct entry_choice *entry, const struct run_facts *run);

/* For rederive (record_again.c), inside its transaction: the rule of
 * entry and run's flavor becomes run's, citing evidence, with its bands;
 * and one SQL statement, its error printed. Nonzero on failure. */
typedef struct sqlite3 sqlite3;
int record_rule_rows(sqlite3 *db, const struct entry_choice *entry, const struct run_facts *run, const char *evidence);
int exec_sql(sqlite3 *db, const char *sql);

#endif
