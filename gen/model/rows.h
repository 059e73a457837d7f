/* Reading table rows so that every error names its table, row and column,
 * and no value is trusted to have passed the schema's CHECKs. */
#ifndef UARCHGEN_ROWS_H
#define UARCHGEN_ROWS_H

#include <sqlite3.h>

struct loader {
	sqlite3 *db;
	const char *path;
	int errors;
};

void row_error(struct loader *l, const char *table, const char *row, const char *column, const char *what);

/* Column i as text; NULL stays NULL where nullable, else it is an error. */
char *col_text(struct loader *l, sqlite3_stmt *st, int i, const char *table, const char *row, int nullable);

/* Column i as an integer; *has is 0 where it is NULL or not an integer. */
int col_int(struct loader *l, sqlite3_stmt *st, int i, const char *table, const char *row, int *has);
/* The same within min..max: a length may pass a million bytes. */
int col_int_in(struct loader *l, sqlite3_stmt *st, int i, const char *table, const char *row, int *has,
	       long long min, long long max);

sqlite3_stmt *prepare(struct loader *l, const char *sql);

/* "(name='zen2')": how an error names a row, by its first nkeys columns. */
char *row_key(sqlite3_stmt *st, int nkeys);

/* 1-31 of [a-z0-9_], starting with a letter: entry, flavor and routine names. */
int name_ok(const char *s);

#endif
