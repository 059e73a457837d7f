/* The rules and the evidence folders of runs derived again (rederive.c),
 * changed together: all or nothing. */
#ifndef UARCHGEN_RECORD_AGAIN_H
#define UARCHGEN_RECORD_AGAIN_H

#include "evidence.h"
#include "run_facts.h"

struct rederived {
	struct run_facts run;
	struct entry_choice entry;  /* the run's entry, which it stays in */
	struct evidence_folder ev;  /* tmp written again; final the published folder */
	int cited;                  /* the rule of its entry and flavor cites it */
};

/* Under the evidence lock, in one transaction: each cited run's rule and
 * bands replaced by its new derivation, the database checked as the
 * generator reads it, then each hidden folder exchanged with its published
 * one, then the commit. On success each tmp holds the old folder, removed
 * here; on failure every folder is put back and each tmp holds what was
 * derived, the caller's to remove. Nonzero after printing why. */
int record_again(const char *db_path, struct rederived **runs, int n);

#endif
