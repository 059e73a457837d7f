/* Merging uarch.db as git merges text: three-way, row by row. The rows are
 * those of the canonical dump (model/dump.c), keyed by each table's primary
 * key; the merged rows are rebuilt into a new database. */
#ifndef UARCHGEN_MERGE_H
#define UARCHGEN_MERGE_H

/* Merges the rows of base, ours and theirs into a new database at out_path
 * (written whole or not at all). A row changed the same way on both sides,
 * or on one side only, merges; a row changed differently on both is a
 * conflict: nothing is written and the conflicts are printed, naming for a
 * rule the entry and both runs (quiet: the conflicts are not printed).
 * Returns 0 merged, 1 conflict or a merged database that does not hold
 * together, -1 an unreadable input. */
int merge_databases(const char *base, const char *ours, const char *theirs, const char *out_path, int quiet);

/* git's merge driver for uarch.db (%O %A %B): the result replaces ours. */
int merge_db_command(const char *base, const char *ours, const char *theirs);

/* git's merge driver for a file of out/ (%O %A %B %P): the file as the
 * generator writes it from the merge of the three commits' uarch.db. */
int merge_out_command(const char *ours_file, const char *path);

#endif
