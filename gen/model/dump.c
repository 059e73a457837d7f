#include "dump.h"

#include "../../common/util.h"

#include <stdlib.h>
#include <string.h>

static int dump_table(sqlite3 *db, const char *table, struct buf *out)
{
	struct buf cols = {0}, order = {0};
	sqlite3_stmt *st;
	char *sql = xasprintf("SELECT name FROM pragma_table_info('%s') ORDER BY cid", table);
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return rc;
	int n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 0);
		buf_printf(&cols, "%squote(\"%s\")", n ? " || ',' || " : "", c);
		buf_printf(&order, "%s\"%s\"", n ? ", " : "", c);
		n++;
	}
	sqlite3_finalize(st);
	sql = xasprintf("SELECT %s FROM \"%s\" ORDER BY %s", cols.data, table, order.data);
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	buf_free(&cols);
	buf_free(&order);
	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		buf_printf(out, "INSERT INTO %s VALUES(%s);\n", table, sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

char *dump_database(sqlite3 *db, int *errors)
{
	struct buf out = {0};
	sqlite3_stmt *st;
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
		int rc = dump_table(db, table, &out);
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
	err("cannot dump the database: %s", sqlite3_errmsg(db));
	(*errors)++;
	buf_free(&out);
	return NULL;
}
