#include "db_open.h"

#include "../../common/util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What a failed first read means, from SQLite's extended result code. */
static void explain(const char *path, sqlite3 *db)
{
	int code = sqlite3_extended_errcode(db);
	switch (code & 0xff) {
	case SQLITE_NOTADB:
		err("%s: not a SQLite database (git checkout uarch.db restores the committed one)", path);
		break;
	case SQLITE_CORRUPT:
		err("%s: the database is damaged (%s): restore it (git checkout uarch.db) or recover what is left "
		    "(sqlite3 %s .recover)",
		    path, sqlite3_errmsg(db), path);
		break;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		err("%s: the database is locked by another process (a probe recording?): run again when it is done", path);
		break;
	case SQLITE_READONLY:
		if (code == SQLITE_READONLY_ROLLBACK) {
			err("%s: an interrupted write left %s-journal: open the database read-write once to roll it back "
			    "(sqlite3 %s 'PRAGMA quick_check'), then run again",
			    path, path, path);
			break;
		}
		/* fall through */
	default:
		err("%s: cannot read the database: %s", path, sqlite3_errmsg(db));
	}
}

int db_open_readonly(const char *path, sqlite3 **db)
{
	struct stat sb;
	*db = NULL;
	if (stat(path, &sb) != 0) {
		err("%s: cannot open the database: no such file", path);
		return -1;
	}
	if (sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		err("%s: cannot open the database: %s", path, sqlite3_errmsg(*db));
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	sqlite3_busy_timeout(*db, 2000);
	/* quick_check reads every page: a damaged one is reported here, by
	 * name, instead of as whatever the query that meets it says. */
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(*db, "PRAGMA quick_check", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		explain(path, *db);
	} else if (strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0) {
		char *first = xstrdup((const char *)sqlite3_column_text(st, 0));
		for (char *c = first; *c; c++)
			if (*c == '\n')
				*c = ' ';
		err("%s: the database is damaged (%s): restore it (git checkout uarch.db) or recover what is left "
		    "(sqlite3 %s .recover)",
		    path, first, path);
		free(first);
		rc = SQLITE_CORRUPT;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW) {
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	return 0;
}
