/* Writing out/ all or nothing, and comparing it with what would be written. */
#ifndef UARCHGEN_OUTPUT_H
#define UARCHGEN_OUTPUT_H

#include "fileset.h"

/* Replaces dir whole (output_write.c): the new tree is written beside it,
 * then exchanged with it in one rename, so that dir is always one run's
 * output, whatever kills the run. Unchanged files keep their inode and
 * time; a dir with nothing to change is not written at all. */
int output_write(const struct fileset *fs, const char *dir, int verbose);

/* Prints a unified diff for each file that differs or is missing, and each
 * file under dir that is not generated. Returns the number of differences. */
int output_check(const struct fileset *fs, const char *dir);

/* Calls report for each file under dir that fs does not hold (rel: its
 * path under dir); returns how many reports returned nonzero. */
int output_ungenerated(const struct fileset *fs, const char *dir, int (*report)(const char *dir, const char *rel));

#endif
