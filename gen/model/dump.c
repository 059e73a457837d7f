#include "dump.h"

#include "../../common/util.h"

#include <stdlib.h>
#include <string.h>

/* name as an SQL identifier: in double quotes, each one inside doubled, so
 * that any name a table or column may have (a quote, a space, a keyword)
 * reads as that name and nothing else. */
static char *quoted(const char *name)
{
	struct buf b = {0};
	buf_adds(&b, "\"");
	for (const char *c = name; *c; c++)
		buf_adds(&b, *c == '"' ? "\"\"" : (char[]){*c, '\0'});
	buf_adds(&b, "\"");
	return b.data;
}

/* The table's name as the dump writes it: bare where SQL reads it bare, so
 * that the dump of the schema's own tables (and the hash over it) stays as
 * it was; quoted otherwise, so that the dump still runs. */
static char *written_name(const char *name)
{
	int plain = (*name >= 'a' && *name <= 'z') || *name == '_';
	for (const char *c = name; *c && plain; c++)
		plain = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_';
	if (plain && !sqlite3_keyword_check(name, (int)strlen(name)))
		return xstrdup(name);
	return quoted(name);
}

/* Fails with the statement's error in *why (malloc'd). */
static int dump_table(sqlite3 *db, const char *table, struct buf *out, char **why)
{
	struct buf cols = {0}, order = {0};
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?1) ORDER BY cid", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	int n = 0;
	while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		char *c = quoted((const char *)sqlite3_column_text(st, 0));
		buf_printf(&cols, "%squote(%s)", n ? " || ',' || " : "", c);
		buf_printf(&order, "%s%s", n ? ", " : "", c);
		free(c);
		n++;
	}
	if (rc != SQLITE_OK)
		*why = xasprintf("table %s: %s", table, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	if (rc == SQLITE_OK && n == 0) {
		*why = xasprintf("table %s: no columns to read", table);
		rc = SQLITE_ERROR;
	}
	char *name = quoted(table), *written = written_name(table);
	if (rc == SQLITE_OK) {
		char *sql = xasprintf("SELECT %s FROM %s ORDER BY %s", cols.data, name, order.data);
		rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
		free(sql);
		while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
			buf_printf(out, "INSERT INTO %s VALUES(%s);\n", written, sqlite3_column_text(st, 0));
			rc = SQLITE_OK;
		}
		if (rc == SQLITE_DONE)
			rc = SQLITE_OK;
		if (rc != SQLITE_OK)
			*why = xasprintf("table %s: %s", table, sqlite3_errmsg(db));
		sqlite3_finalize(st);
	}
	free(name);
	free(written);
	buf_free(&cols);
	buf_free(&order);
	return rc;
}

char *dump_database(sqlite3 *db, int *errors)
{
	struct buf out = {0};
	sqlite3_stmt *st;
	char *why = NULL;
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		goto fail;
	if (sqlite3_step(st) == SQLITE_ROW)
		buf_printf(&out, "PRAGMA user_version = %d;\n", sqlite3_column_int(st, 0));
	sqlite3_finalize(st);
	/* One transaction: `dump | sqlite3 new.db` commits once, not once per row. */
	buf_adds(&out, "BEGIN TRANSACTION;\n");

	if (sqlite3_prepare_v2(db,
			       "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
			       "ORDER BY type = 'view', name",
			       -1, &st, NULL) != SQLITE_OK)
		goto fail;
	while (sqlite3_step(st) == SQLITE_ROW)
		buf_printf(&out, "%s;\n", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);

	if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
				   "ORDER BY name",
			       -1, &st, NULL) != SQLITE_OK)
		goto fail;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *table = xstrdup((const char *)sqlite3_column_text(st, 0));
		int rc = dump_table(db, table, &out, &why);
		free(table);
		if (rc != SQLITE_OK) {
			sqlite3_finalize(st);
			goto fail;
		}
	}
	sqlite3_finalize(st);
	buf_adds(&out, "COMMIT;\n");
	return out.data;
fail:
	/* The message is taken before anything resets it: after a finalize,
	 * sqlite3_errmsg says "not an error". */
	if (!why)
		why = xstrdup(sqlite3_errmsg(db));
	err("cannot dump the database: %s", why);
	free(why);
	(*errors)++;
	buf_free(&out);
	return NULL;
}
