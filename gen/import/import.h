/* uarchgen import: a probe's run archive becomes the core's rule, its run
 * row and its evidence folder, in one transaction. */
#ifndef UARCHGEN_IMPORT_H
#define UARCHGEN_IMPORT_H

/* Imports each archive in turn into db_path. name (may be NULL) is --name;
 * dry_run derives and prints, writing nothing. Returns the exit status:
 * 0 when every archive was imported or was already, 1 when one was refused
 * or failed (its error names it), 2 when a CPU cannot be placed. */
int import_archives(const char *db_path, const char *name, int dry_run, char **paths, int n_paths);

#endif
