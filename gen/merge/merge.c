#include "merge.h"

#include "../../common/util.h"
#include "../model/dump.h"
#include "../model/model.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One table's rows in one database: key and whole row, as quoted SQL
 * values, sorted by key. */
struct rows {
	char **key, **row;
	size_t n;
};

static void rows_free(struct rows *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->key[i]);
		free(r->row[i]);
	}
	free(r->key);
	free(r->row);
	memset(r, 0, sizeof *r);
}

/* "quote(a) || ',' || quote(b)" over the table's columns: all of them, or
 * those of its primary key (all of them when it has none). */
static char *column_list(sqlite3 *db, const char *schema, const char *table, int key_only)
{
	struct buf b = {0};
	sqlite3_stmt *st;
	char *sql = xasprintf("SELECT name, pk FROM pragma_table_info(?1, ?2) ORDER BY %s", key_only ? "pk, cid" : "cid");
	int n = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, schema, -1, SQLITE_STATIC);
		int has_pk = 0;
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (key_only && sqlite3_column_int(st, 1) == 0)
				continue;
			has_pk = 1;
			buf_printf(&b, "%squote(\"%s\")", n++ ? " || ',' || " : "", (const char *)sqlite3_column_text(st, 0));
		}
		sqlite3_finalize(st);
		if (key_only && !has_pk) {
			free(sql);
			buf_free(&b);
			return column_list(db, schema, table, 0);
		}
	}
	free(sql);
	return b.data;
}

static int read_rows(sqlite3 *db, const char *schema, const char *table, struct rows *out)
{
	memset(out, 0, sizeof *out);
	char *key = column_list(db, schema, table, 1), *row = column_list(db, schema, table, 0);
	if (!key || !row) {
		free(key);
		free(row);
		return -1;
	}
	char *sql = xasprintf("SELECT %s, %s FROM %s.\"%s\" ORDER BY 1", key, row, schema, table);
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	free(sql);
	free(key);
	free(row);
	if (rc != SQLITE_OK)
		return -1;
	size_t cap = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (out->n == cap) {
			cap = cap ? 2 * cap : 64;
			out->key = xrealloc(out->key, cap * sizeof *out->key);
			out->row = xrealloc(out->row, cap * sizeof *out->row);
		}
		out->key[out->n] = xstrdup((const char *)sqlite3_column_text(st, 0));
		out->row[out->n++] = xstrdup((const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The row of key in r, or NULL; *at walks r in key order. */
static const char *row_at(const struct rows *r, size_t *at, const char *key)
{
	while (*at < r->n && strcmp(r->key[*at], key) < 0)
		(*at)++;
	return *at < r->n && strcmp(r->key[*at], key) == 0 ? r->row[*at] : NULL;
}

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The smallest key of the three at their cursors, or NULL when all are done. */
static const char *next_key(const struct rows *r, const size_t *at)
{
	const char *k = NULL;
	for (int i = 0; i < 3; i++)
		if (at[i] < r[i].n && (!k || strcmp(r[i].key[at[i]], k) < 0))
			k = r[i].key[at[i]];
	return k;
}

/* A side's rule row of key, as "entry (flavor)" and the evidence it links,
 * for a conflict's message. */
static void rule_of(sqlite3 *db, const char *schema, const char *key, char *entry, size_t size, char **evidence)
{
	char *sql = xasprintf("SELECT uarch, flavor, evidence FROM %s.rule WHERE quote(uarch) || ',' || quote(flavor) = ?1",
			      schema);
	sqlite3_stmt *st;
	*evidence = NULL;
	snprintf(entry, size, "(%s)", key);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW) {
			snprintf(entry, size, "%s (flavor %s)", (const char *)sqlite3_column_text(st, 0),
				 (const char *)sqlite3_column_text(st, 1));
			if (sqlite3_column_text(st, 2))
				*evidence = xstrdup((const char *)sqlite3_column_text(st, 2));
		}
		sqlite3_finalize(st);
	}
	free(sql);
	if (!*evidence)
		*evidence = xstrdup("(no rule)");
}

static void report_conflict(sqlite3 *db, const char *table, const char *key, const char *ours, const char *theirs)
{
	if (strcmp(table, "rule") == 0) {
		char entry[128], unused[128], *a, *b;
		rule_of(db, "ours", key, entry, sizeof entry, &a);
		rule_of(db, "theirs", key, unused, sizeof unused, &b);
		err("uarch.db: entry %s was measured on both branches: ours %s, theirs %s; keep one run (check out "
		    "one side's uarch.db, out/ and evidence/, then import the other's archive if it should win), or "
		    "measure again",
		    entry, a, b);
		free(a);
		free(b);
	} else if (strcmp(table, "rule_band") != 0) { /* a rule's bands follow its rule */
		err("uarch.db: table %s, row (%s): ours %s, theirs %s", table, key, ours ? ours : "deleted",
		    theirs ? theirs : "deleted");
	}
}

/* Appends the merged rows of table to sql; counts conflicts. */
static int merge_table(sqlite3 *db, const char *table, struct buf *sql, int *conflicts, int quiet)
{
	static const char *const side[] = {"base", "ours", "theirs"};
	struct rows r[3];
	int rc = 0;
	for (int i = 0; i < 3; i++)
		if (read_rows(db, side[i], table, &r[i]))
			rc = -1;
	size_t at[3] = {0, 0, 0};
	const char *key;
	while (!rc && (key = next_key(r, at))) {
		char *k = xstrdup(key);
		size_t cur[3] = {at[0], at[1], at[2]};
		const char *b = row_at(&r[0], &cur[0], k), *o = row_at(&r[1], &cur[1], k), *t = row_at(&r[2], &cur[2], k);
		const char *take;
		if (same(o, t) || same(b, t))
			take = o;
		else if (same(b, o))
			take = t;
		else {
			if (!quiet)
				report_conflict(db, table, k, o, t);
			(*conflicts)++;
			take = o;
		}
		if (take)
			buf_printf(sql, "INSERT INTO \"%s\" VALUES(%s);\n", table, take);
		for (int i = 0; i < 3; i++)
			if (at[i] < r[i].n && strcmp(r[i].key[at[i]], k) == 0)
				at[i]++;
		free(k);
	}
	for (int i = 0; i < 3; i++)
		rows_free(&r[i]);
	return rc;
}

static char *schema_text(sqlite3 *db, const char *schema)
{
	struct buf b = {0};
	sqlite3_stmt *st;
	char *sql = xasprintf("SELECT sql FROM %s.sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%%' "
			      "ORDER BY type = 'view', name",
			      schema);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW)
			buf_printf(&b, "%s;\n", sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	free(sql);
	if (!b.data)
		buf_adds(&b, "");
	return b.data;
}

static int user_version(sqlite3 *db, const char *schema)
{
	char *sql = xasprintf("PRAGMA %s.user_version", schema);
	sqlite3_stmt *st;
	int v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	free(sql);
	return v;
}

static int attach(sqlite3 *db, const char *path, const char *as)
{
	char *uri = sqlite3_mprintf("file:%s?mode=ro", path);
	char *sql = sqlite3_mprintf("ATTACH %Q AS %s", uri, as);
	int rc = access(path, R_OK) != 0 || sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK;
	if (rc)
		err("merge: %s: cannot read it as a database: %s", path, access(path, R_OK) ? strerror(errno) : sqlite3_errmsg(db));
	sqlite3_free(sql);
	sqlite3_free(uri);
	return rc ? -1 : 0;
}

/* The merged rows as a script that builds the database. */
static int merged_sql(const char *base, const char *ours, const char *theirs, struct buf *sql, int *conflicts,
		      int quiet)
{
	sqlite3 *db;
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, NULL) != SQLITE_OK)
		return -1;
	int rc = attach(db, base, "base") || attach(db, ours, "ours") || attach(db, theirs, "theirs") ? -1 : 0;
	char *schema[3] = {NULL, NULL, NULL};
	static const char *const side[] = {"base", "ours", "theirs"};
	for (int i = 0; !rc && i < 3; i++)
		schema[i] = schema_text(db, side[i]);
	int v[3] = {0, 0, 0};
	for (int i = 0; !rc && i < 3; i++)
		v[i] = user_version(db, side[i]);
	if (!rc && (strcmp(schema[0], schema[1]) || strcmp(schema[1], schema[2]) || v[0] != v[1] || v[1] != v[2])) {
		err("uarch.db: the three versions have different schemas (base %d, ours %d, theirs %d, or their tables "
		    "differ); bring both branches to one schema first, then merge",
		    v[0], v[1], v[2]);
		rc = 1;
	}
	if (!rc) {
		buf_printf(sql, "PRAGMA user_version = %d;\nBEGIN TRANSACTION;\n%s", v[1], schema[1]);
		sqlite3_stmt *st;
		rc = sqlite3_prepare_v2(db, "SELECT name FROM ours.sqlite_schema WHERE type = 'table' AND name NOT LIKE "
					    "'sqlite_%' ORDER BY name",
					-1, &st, NULL) != SQLITE_OK
			     ? -1
			     : 0;
		while (!rc && sqlite3_step(st) == SQLITE_ROW) {
			char *table = xstrdup((const char *)sqlite3_column_text(st, 0));
			rc = merge_table(db, table, sql, conflicts, quiet);
			free(table);
		}
		sqlite3_finalize(st);
		buf_adds(sql, "COMMIT;\n");
	}
	for (int i = 0; i < 3; i++)
		free(schema[i]);
	sqlite3_close(db);
	return rc;
}

int merge_databases(const char *base, const char *ours, const char *theirs, const char *out_path, int quiet)
{
	struct buf sql = {0};
	int conflicts = 0;
	int rc = merged_sql(base, ours, theirs, &sql, &conflicts, quiet);
	if (rc || conflicts) {
		if (conflicts && !quiet)
			err("uarch.db: %d row%s changed differently on both branches; the database is left as ours",
			    conflicts, conflicts == 1 ? "" : "s");
		buf_free(&sql);
		return rc < 0 ? -1 : 1;
	}
	/* Rebuilt from the merged rows in a file of its own, checked as the
	 * generator checks any database, then renamed into place. */
	char *tmp = xasprintf("%s.merge-%ld", out_path, (long)getpid());
	unlink(tmp);
	sqlite3 *db;
	char *msg = NULL;
	rc = sqlite3_open(tmp, &db) != SQLITE_OK || sqlite3_exec(db, sql.data, NULL, NULL, &msg) != SQLITE_OK;
	if (rc)
		err("uarch.db: the merged rows do not build a database: %s", msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	sqlite3_close(db);
	buf_free(&sql);
	struct model m;
	if (!rc && model_load_unfiled(&m, tmp)) {
		err("uarch.db: the merged rows do not hold together (above); the database is left as ours");
		rc = 1;
	}
	if (!rc && rename(tmp, out_path) != 0) {
		err("%s: %s", out_path, strerror(errno));
		rc = -1;
	}
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

int merge_db_command(const char *base, const char *ours, const char *theirs)
{
	int rc = merge_databases(base, ours, theirs, ours, 0);
	return rc == 0 ? 0 : EXIT_FAIL;
}
