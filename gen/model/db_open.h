/* Opening uarch.db read-only, and saying plainly why it cannot be read. */
#ifndef UARCHGEN_DB_OPEN_H
#define UARCHGEN_DB_OPEN_H

#include <sqlite3.h>

/* Opens path read-only and checks that it can be read whole. On failure
 * prints what is wrong (no such file, not a database, damaged, locked, an
 * interrupted write) and what to do, and returns nonzero with *db NULL. */
int db_open_readonly(const char *path, sqlite3 **db);

#endif
