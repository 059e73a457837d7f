/* uarchgen rederive (rederive.h): each run's archive loaded and derived as
 * an import would, its evidence folder written again hidden, then the
 * rules and the folders changed together (record_again). */
#include "rederive.h"

#include "../../common/util.h"
#include "evidence.h"
#include "import.h"
#include "interrupt.h"
#include "record_again.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct again {
	char id[128], sha256[65];
	struct run_archive archive;
	struct cpu_info cpu;
	struct timings table;
	struct derived_rule rule;
	struct rederived r; /* the facts and the hidden folder record_again takes */
};

/* Every run with an archive, in id order, into *out. Nonzero after
 * printing why. */
static int named(const char *id, char **only, int n_only)
{
	for (int i = 0; i < n_only; i++)
		if (strcmp(only[i], id) == 0)
			return 1;
	return n_only == 0;
}

static int list_runs(const char *db_path, char **only, int n_only, struct again **out, int *n)
{
	sqlite3 *db;
	sqlite3_stmt *st = NULL;
	*out = NULL, *n = 0;
	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db,
			       "SELECT run.id, run.uarch, run.archive_sha256, "
			       "coalesce(rule.evidence = 'evidence/' || run.id || '/summary.md', 0), "
			       "EXISTS (SELECT 1 FROM flavor_routine f WHERE f.flavor = run.flavor AND f.routine = 'memmove') "
			       "FROM run LEFT JOIN rule ON rule.uarch = run.uarch AND rule.flavor = run.flavor "
			       "WHERE run.archive_sha256 IS NOT NULL ORDER BY run.id",
			       -1, &st, NULL) != SQLITE_OK) {
		err("%s: cannot read its runs: %s", db_path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return -1;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (!named((const char *)sqlite3_column_text(st, 0), only, n_only))
			continue;
		*out = xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
		struct again *g = &(*out)[(*n)++];
		memset(g, 0, sizeof *g);
		snprintf(g->id, sizeof g->id, "%s", (const char *)sqlite3_column_text(st, 0));
		snprintf(g->r.entry.name, sizeof g->r.entry.name, "%s", (const char *)sqlite3_column_text(st, 1));
		snprintf(g->sha256, sizeof g->sha256, "%s", (const char *)sqlite3_column_text(st, 2));
		g->r.cited = sqlite3_column_int(st, 3);
		g->r.run.moves = sqlite3_column_int(st, 4); /* as the model reads it: the flavor has a memmove */
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	for (int k = 0; k < n_only; k++) {
		int found = 0;
		for (int i = 0; i < *n; i++)
			found |= strcmp((*out)[i].id, only[k]) == 0;
		if (!found) {
			err("%s: no run %s with an archive (uarchgen query lists the runs' evidence)", db_path, only[k]);
			return -1;
		}
	}
	return 0;
}

/* Loads and derives run g from evidence/<id>/run.archive beside db_path,
 * and without dry_run writes its folder again, hidden. Nonzero after
 * printing why. */
static int derive_again(const char *db_path, struct again *g, int dry_run)
{
	const char *slash = strrchr(db_path, '/');
	char path[1400], why[512], text[RULE_TEXT_MAX];
	snprintf(path, sizeof path, "%.*sevidence/%s/" ARCHIVE_FILE, slash ? (int)(slash - db_path + 1) : 0, db_path,
		 g->id);
	if (archive_load(path, &g->archive, why, sizeof why)) {
		err("%s: %s; run %s cannot be derived again", path, why, g->id);
		return -1;
	}
	if (strcmp(g->archive.sha256, g->sha256) != 0) {
		err("%s: not the archive run %s recorded (its sha256 is %.12s..., the run's %.12s...)", path, g->id,
		    g->archive.sha256, g->sha256);
		return -1;
	}
	cpu_decode(&g->archive.cpuid, &g->cpu);
	g->r.run.archive = &g->archive;
	g->r.run.cpu = &g->cpu;
	if (import_derive(&g->archive, &g->table, &g->rule, &g->r.run))
		return -1;
	rule_text(&g->rule, text, sizeof text);
	printf("%s%s: %s\n", g->id, g->r.cited ? " (its rule's evidence)" : "", text);
	fflush(stdout);
	if (dry_run)
		return 0;
	if (evidence_prepare(&g->r.ev, db_path, g->r.entry.name, g->archive.date, g->archive.sha256))
		return -1;
	if (strcmp(g->r.ev.run_id, g->id) != 0) {
		err("run %s: its archive names it %s; nothing was changed", g->id, g->r.ev.run_id);
		return -1;
	}
	return evidence_write(&g->r.ev, &g->r.entry, &g->r.run);
}

int rederive_runs(const char *db_path, int dry_run, char **only, int n_only)
{
	struct again *runs;
	int n, rc = 0;
	if (list_runs(db_path, only, n_only, &runs, &n)) {
		free(runs);
		return EXIT_FAIL;
	}
	interrupt_catch();
	for (int i = 0; i < n && !rc; i++) {
		fprintf(stderr, "rederive: run %d of %d\n", i + 1, n);
		rc = derive_again(db_path, &runs[i], dry_run) != 0;
		if (!rc && interrupt_came()) {
			err("interrupted; nothing was changed");
			rc = 1;
		}
	}
	if (!rc && !dry_run) {
		struct rederived **r = xmalloc((size_t)(n ? n : 1) * sizeof *r);
		int cited = 0;
		for (int i = 0; i < n; i++) {
			r[i] = &runs[i].r;
			cited += r[i]->cited;
		}
		rc = record_again(db_path, r, n) != 0;
		if (!rc)
			printf("rederived %d runs with derivation %d; %d rules replaced\n"
			       "next: make    (regenerates out/ from the rules), then make check\n",
			       n, DERIVE_VERSION, cited);
		free(r);
	} else if (!rc) {
		printf("--dry-run: %d runs derived with derivation %d; nothing was written\n", n, DERIVE_VERSION);
	}
	for (int i = 0; i < n; i++) {
		/* On a failure each hidden folder holds what was derived here:
		 * record_again has put every published one back. */
		if (rc && runs[i].r.ev.tmp[0])
			evidence_remove(runs[i].r.ev.tmp);
		timings_free(&runs[i].table);
		archive_free(&runs[i].archive);
	}
	free(runs);
	return rc ? EXIT_FAIL : 0;
}
