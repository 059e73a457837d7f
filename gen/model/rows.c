#include "rows.h"

#include "../../common/text.h"
#include "../../common/util.h"

#include <stdlib.h>
#include <string.h>

void row_error(struct loader *l, const char *table, const char *row, const char *column,
		      const char *what)
{
	err("%s: table %s, row %s, column %s: %s", l->path, table, row, column, what);
	l->errors++;
}

/* Reads column i as text; NULL stays NULL where nullable, else it is an error. */
char *col_text(struct loader *l, sqlite3_stmt *st, int i, const char *table, const char *row,
		      int nullable)
{
	const char *column = sqlite3_column_name(st, i);
	int type = sqlite3_column_type(st, i);
	if (type == SQLITE_NULL) {
		if (!nullable)
			row_error(l, table, row, column, "must not be NULL");
		return NULL;
	}
	if (type != SQLITE_TEXT) {
		row_error(l, table, row, column, "expected text");
		return NULL;
	}
	const char *v = (const char *)sqlite3_column_text(st, i);
	const char *problem = strlen(v) == (size_t)sqlite3_column_bytes(st, i) ? text_problem(v)
										: "holds a NUL byte; text is one printable line";
	if (problem) {
		row_error(l, table, row, column, problem);
		return NULL;
	}
	return xstrdup(v);
}

int col_int(struct loader *l, sqlite3_stmt *st, int i, const char *table, const char *row,
		   int *has)
{
	return col_int_in(l, st, i, table, row, has, -1000000, 1000000);
}

int col_int_in(struct loader *l, sqlite3_stmt *st, int i, const char *table, const char *row, int *has,
	       long long min, long long max)
{
	const char *column = sqlite3_column_name(st, i);
	int type = sqlite3_column_type(st, i);
	*has = type != SQLITE_NULL;
	if (type == SQLITE_NULL)
		return 0;
	if (type != SQLITE_INTEGER) {
		row_error(l, table, row, column, "expected an integer");
		*has = 0;
		return 0;
	}
	sqlite3_int64 v = sqlite3_column_int64(st, i);
	if (v < min || v > max) {
		row_error(l, table, row, column, "integer out of any sane range");
		*has = 0;
		return 0;
	}
	return (int)v;
}

sqlite3_stmt *prepare(struct loader *l, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(l->db, sql, -1, &st, NULL) != SQLITE_OK) {
		err("%s: %s (while running: %s)", l->path, sqlite3_errmsg(l->db), sql);
		l->errors++;
		return NULL;
	}
	return st;
}

/* "(name='zen2')": how an error names a row, by its key. */
char *row_key(sqlite3_stmt *st, int nkeys)
{
	struct buf b = {0};
	buf_adds(&b, "(");
	for (int i = 0; i < nkeys; i++) {
		const char *v = (const char *)sqlite3_column_text(st, i);
		if (sqlite3_column_type(st, i) == SQLITE_TEXT) {
			/* A key is printed to a terminal: its text made printable first. */
			char *safe = xstrdup(v);
			text_sanitize(safe);
			buf_printf(&b, "%s%s='%s'", i ? ", " : "", sqlite3_column_name(st, i), safe);
			free(safe);
		} else {
			buf_printf(&b, "%s%s=%s", i ? ", " : "", sqlite3_column_name(st, i), v ? v : "NULL");
		}
	}
	buf_adds(&b, ")");
	return b.data;
}

int name_ok(const char *s)
{
	if (!s || !*s || strlen(s) > 31 || *s < 'a' || *s > 'z')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

