/* record_again (record_again.h). */
#include "record_again.h"

#include "../../common/util.h"
#include "../model/evidence_lock.h"
#include "../model/model.h"
#include "interrupt.h"
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exchanges runs[0..n)'s hidden and published folders, atomically each;
 * returns how many it exchanged, all of them unless one failed (said). */
static int exchange(struct rederived **runs, int n)
{
	for (int i = 0; i < n; i++)
		if (renameat2(AT_FDCWD, runs[i]->ev.tmp, AT_FDCWD, runs[i]->ev.final, RENAME_EXCHANGE) != 0) {
			err("%s: cannot replace it: %s", runs[i]->ev.final, strerror(errno));
			return i;
		}
	return n;
}

static int transaction(const char *db_path, struct rederived **runs, int n)
{
	sqlite3 *db;
	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		err("%s: cannot open for writing: %s", db_path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return -1;
	}
	sqlite3_busy_timeout(db, 60000);
	int rc = exec_sql(db, "PRAGMA foreign_keys = ON") || exec_sql(db, "BEGIN IMMEDIATE");
	for (int i = 0; !rc && i < n; i++)
		if (runs[i]->cited && record_rule_rows(db, &runs[i]->entry, &runs[i]->run, runs[i]->ev.link)) {
			err("%s: %s; nothing was changed", db_path, sqlite3_errmsg(db));
			rc = 1;
		}
	struct model after;
	if (!rc && model_load_open(&after, db, db_path)) {
		err("%s: the generator would refuse the rules derived again; nothing was changed", db_path);
		rc = 1;
	}
	int swapped = rc ? 0 : exchange(runs, n);
	rc = rc || swapped < n || exec_sql(db, "COMMIT");
	if (rc) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		if (exchange(runs, swapped) != swapped)
			err("evidence/ holds folders derived again while the database holds the old rules: "
			    "run uarchgen rederive again");
	}
	sqlite3_close(db);
	return rc ? -1 : 0;
}

int record_again(const char *db_path, struct rederived **runs, int n)
{
	if (interrupt_came())
		return -1;
	/* From here the folders and the database change together: a Ctrl-C
	 * waits until both are done or both are undone. */
	sigset_t old;
	signals_hold(&old);
	const char *slash = strrchr(db_path, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash - db_path), db_path) : xstrdup(".");
	int lock = evidence_lock(dir, db_path, 1), rc = -1;
	free(dir);
	if (lock != -1)
		rc = transaction(db_path, runs, n);
	evidence_unlock(lock);
	sigprocmask(SIG_SETMASK, &old, NULL);
	for (int i = 0; rc == 0 && i < n; i++)
		evidence_remove(runs[i]->ev.tmp); /* the old folder, exchanged out */
	return rc;
}
