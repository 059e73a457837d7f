/* Each table's key names one row. The schema says so with its PRIMARY KEYs,
 * but a database made by hand or by an older schema may lack one, and two
 * rows of one key would load as two entries (or two rules) of one name:
 * the generated C would then define one symbol twice. */
#include "keys.h"

#include "../../common/util.h"
#include "rows.h"

#include <sqlite3.h>
#include <stdlib.h>

static const struct {
	const char *table, *columns;
} keys[] = {
	{"uarch", "name"},
	{"flavor", "name"},
	{"flavor_routine", "flavor, routine"},
	{"cpuid_range", "family, model_lo, uarch"},
	{"rule", "uarch, flavor"},
	{"rule_band", "uarch, flavor, length_lo"},
	{"inherit", "uarch, flavor"},
	{"run", "id"},
};

void check_keys(struct loader *l)
{
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		int n_columns = 1;
		for (const char *c = keys[k].columns; *c; c++)
			n_columns += *c == ',';
		/* The rows are named by rowid: they share every column a key
		 * would name them by. */
		char *sql = xasprintf("SELECT %s, count(*), group_concat(rowid, ', ') FROM %s GROUP BY %s "
				      "HAVING count(*) > 1 ORDER BY %s",
				      keys[k].columns, keys[k].table, keys[k].columns, keys[k].columns);
		sqlite3_stmt *st = prepare(l, sql);
		free(sql);
		if (!st)
			continue;
		while (sqlite3_step(st) == SQLITE_ROW) {
			char *row = row_key(st, n_columns);
			char *what = xasprintf("%d rows (rowid %s) hold this key, which names one row: delete all but one",
					       sqlite3_column_int(st, n_columns),
					       (const char *)sqlite3_column_text(st, n_columns + 1));
			row_error(l, keys[k].table, row, keys[k].columns, what);
			free(what);
			free(row);
		}
		sqlite3_finalize(st);
	}
}
