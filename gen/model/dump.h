/* A canonical SQL dump: the same content gives the same text, whatever order
 * rows were inserted in. It is what a review of uarch.db reads and what the
 * content hash in every banner is taken over. */
#ifndef UARCHGEN_DUMP_H
#define UARCHGEN_DUMP_H

#include <sqlite3.h>

/* Returns malloc'd text, or NULL after printing the error and counting it. */
char *dump_database(sqlite3 *db, int *errors);

#endif
