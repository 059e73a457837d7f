/* Loads table run, each row a probe run whose timings live in
 * evidence/<id>/, and checks the two agree: every run's folder exists and
 * holds its timings (run.archive, whose checksum is the row's, or for runs
 * recorded before the archive, measurements.csv), and every folder under
 * evidence/ is a run's or a rule's. */
#include "model.h"

#include "../../common/util.h"
#include "../../derive/archive.h"
#include "rows.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_id_ok(const char *s)
{
	size_t n = strlen(s);
	return n >= 1 && n <= 100 && s[0] >= 'a' && s[0] <= 'z' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

static int hex64(const char *s)
{
	return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}

static int is_dir(const char *path)
{
	struct stat sb;
	return lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int is_file(const char *path)
{
	struct stat sb;
	return lstat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The run's folder holds the archive the row's checksum names. */
static void check_archive(struct loader *l, const char *row, const char *path, const char *sha256)
{
	size_t len;
	char hex[65];
	char *text = is_file(path) ? read_file(path, &len) : NULL;
	if (!text) {
		char *what = xasprintf("evidence: %s is missing or unreadable (%s)", path,
				       is_file(path) ? strerror(errno) : "no such file");
		row_error(l, "run", row, "archive_sha256", what);
		free(what);
		return;
	}
	int sum = archive_checksum(text, len, hex, NULL);
	if (sum || strcmp(hex, sha256) != 0) {
		char *what = xasprintf("evidence: %s %s", path,
				       sum == 1   ? "is cut short: it lacks its checksum line"
				       : sum == 2 ? "was changed: its checksum line does not match its bytes"
						  : "is another run's archive: its checksum is not this row's");
		row_error(l, "run", row, "archive_sha256", what);
		free(what);
	}
	free(text);
}

static void load_run_row(struct loader *l, struct model *m, sqlite3_stmt *st, char ***ids, size_t *n_ids)
{
	char *row = row_key(st, 1);
	char *id = col_text(l, st, 0, "run", row, 0);
	char *uarch = col_text(l, st, 1, "run", row, 0);
	char *flavor = col_text(l, st, 2, "run", row, 0);
	char *date = col_text(l, st, 3, "run", row, 0);
	char *sha = col_text(l, st, 4, "run", row, 1);
	int has_points = 0, points = col_int(l, st, 5, "run", row, &has_points);
	free(col_text(l, st, 6, "run", row, 0)); /* read for its checks: no text goes unchecked */
	if (id && !run_id_ok(id))
		row_error(l, "run", row, "id", "must be 1-100 of [a-z0-9_-], starting with a letter");
	if (uarch && !model_uarch(m, uarch))
		row_error(l, "run", row, "uarch", "names no row of table uarch");
	int flavor_found = 0;
	for (size_t i = 0; flavor && i < m->n_flavors; i++)
		flavor_found |= m->flavors[i].name && strcmp(m->flavors[i].name, flavor) == 0;
	if (flavor && !flavor_found)
		row_error(l, "run", row, "flavor", "unknown flavor: not a row of table flavor");
	if (date && !day_exists(date))
		row_error(l, "run", row, "measured_on", "must be a day that exists, YYYY-MM-DD");
	if (!has_points || points < 1)
		row_error(l, "run", row, "points", "must be a count of measured points, 1 or more");
	if (sha && !hex64(sha))
		row_error(l, "run", row, "archive_sha256", "must be NULL or 64 lowercase hex digits");
	if (id && run_id_ok(id) && m->db_dir) {
		char *dir = xasprintf("%s/evidence/%s", m->db_dir, id);
		char *timings = xasprintf("%s/%s", dir, sha ? "run.archive" : "measurements.csv");
		if (!is_dir(dir)) {
			char *what = xasprintf("its evidence folder, %s/, is missing (or not a folder)", dir);
			row_error(l, "run", row, "id", what);
			free(what);
		} else if (sha && hex64(sha)) {
			check_archive(l, row, timings, sha);
		} else if (!sha && !is_file(timings)) {
			char *what = xasprintf("a run recorded before archives keeps its timings in %s, which is missing",
					       timings);
			row_error(l, "run", row, "archive_sha256", what);
			free(what);
		}
		free(timings);
		free(dir);
		*ids = xrealloc(*ids, (*n_ids + 1) * sizeof **ids);
		(*ids)[(*n_ids)++] = xstrdup(id);
	}
	free(id);
	free(uarch);
	free(flavor);
	free(date);
	free(sha);
	free(row);
}

/* 1 when a run row is named run, or a rule links evidence/<run>/. */
static int evidence_known(const struct model *m, char **ids, size_t n_ids, const char *run)
{
	for (size_t i = 0; i < n_ids; i++)
		if (strcmp(ids[i], run) == 0)
			return 1;
	char *dir = xasprintf("evidence/%s/", run);
	int known = 0;
	for (size_t i = 0; i < m->n_rules && !known; i++)
		known = m->rules[i].evidence && strncmp(m->rules[i].evidence, dir, strlen(dir)) == 0;
	free(dir);
	return known;
}

/* A folder under evidence/ that nothing in the database refers to is what
 * an import killed while it recorded leaves: it would be committed with the
 * database by mistake, so the run stops until it is removed. */
static void check_orphan_evidence(struct loader *l, const struct model *m, char **ids, size_t n_ids)
{
	char *path = xasprintf("%s/evidence", m->db_dir);
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char *full = xasprintf("%s/%s", path, e->d_name);
		if (e->d_name[0] != '.' && is_dir(full) && !evidence_known(m, ids, n_ids, e->d_name)) {
			err("%s/: no rule links it and no run row names it: an import stopped while it recorded "
			    "left it; import its run.archive again, or remove it (rm -r %s)",
			    full, full);
			l->errors++;
		}
		free(full);
	}
	if (d)
		closedir(d);
	free(path);
}

void load_runs(struct loader *l, struct model *m)
{
	char **ids = NULL;
	size_t n_ids = 0;
	sqlite3_stmt *st = prepare(l, "SELECT id, uarch, flavor, measured_on, archive_sha256, points, cpu_signature FROM run ORDER BY id");
	while (st && sqlite3_step(st) == SQLITE_ROW)
		load_run_row(l, m, st, &ids, &n_ids);
	sqlite3_finalize(st);
	if (m->db_dir)
		check_orphan_evidence(l, m, ids, n_ids);
	for (size_t i = 0; i < n_ids; i++)
		free(ids[i]);
	free(ids);
}
