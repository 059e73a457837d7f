/* uarchgen import: a probe's run archive becomes the core's rule, its run
 * row and its evidence folder, in one transaction. */
#ifndef UARCHGEN_IMPORT_H
#define UARCHGEN_IMPORT_H

#include "run_facts.h"

/* Imports each archive in turn into db_path. name (may be NULL) is --name;
 * dry_run derives and prints, writing nothing. Returns the exit status:
 * 0 when every archive was imported or was already, 1 when one was refused
 * or failed (its error names it), 2 when a CPU cannot be placed. */
int import_archives(const char *db_path, const char *name, int dry_run, char **paths, int n_paths);

/* Derives archive a's rule into rule, from t, the minimum over its passes
 * (filled here; timings_free it), and fills run's derived facts (run->archive
 * and run->cpu are the caller's). Nonzero after printing why. Shared by
 * import and rederive. */
#include "run_facts.h"
int import_derive(const struct run_archive *a, struct timings *t, struct derived_rule *rule, struct run_facts *run);

#endif
