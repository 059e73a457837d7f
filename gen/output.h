/* Writing out/ all or nothing, and comparing it with what would be written. */
#ifndef UARCHGEN_OUTPUT_H
#define UARCHGEN_OUTPUT_H

#include "render.h"

/* Writes every file to a temporary name in its directory, then renames them
 * all. Nothing under dir changes unless every temporary file was written. */
int output_write(const struct fileset *fs, const char *dir, int verbose);

/* Prints a unified diff for each file that differs or is missing, and each
 * file under dir that is not generated. Returns the number of differences. */
int output_check(const struct fileset *fs, const char *dir);

#endif
