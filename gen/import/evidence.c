/* The evidence folder's life: named, written hidden, published whole,
 * or removed (evidence.h says why). */
#include "evidence.h"
#include "evidence_choice.h"

#include "../../common/plot.h"
#include "../../common/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The hidden folder an import fills before it publishes it. */
#define HIDDEN_PREFIX ".import-"

/* Removes the hidden folders, .import-<pid>-*, of imports no longer alive:
 * what an import killed outright (SIGKILL) before it published left. */
static void remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, HIDDEN_PREFIX, strlen(HIDDEN_PREFIX)) != 0)
			continue;
		long pid = strtol(e->d_name + strlen(HIDDEN_PREFIX), NULL, 10);
		if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM))
			continue; /* an import still writing */
		char path[1400];
		snprintf(path, sizeof path, "%.1000s/%.300s", dir, e->d_name);
		evidence_remove(path);
	}
	if (d)
		closedir(d);
}

int evidence_prepare(struct evidence_folder *f, const char *db_path, const char *entry, const char *date,
		     const char *sha256)
{
	char dir[1024];
	const char *slash = strrchr(db_path, '/');
	if (strlen(db_path) > 900) {
		fprintf(stderr, "uarchgen: %.60s...: the database path is too long\n", db_path);
		return -1;
	}
	if (slash)
		snprintf(dir, sizeof dir, "%.*s/evidence", (int)(slash - db_path), db_path);
	else
		snprintf(dir, sizeof dir, "evidence");
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "uarchgen: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	/* <entry>-<date>-<the archive's checksum, 6 hex digits>: two runs of one
	 * entry on one day, here or on two machines, get two ids, and one
	 * archive always the same id. */
	snprintf(f->run_id, sizeof f->run_id, "%s-%s-%.6s", entry, date, sha256);
	snprintf(f->final, sizeof f->final, "%s/%s", dir, f->run_id);
	snprintf(f->link, sizeof f->link, "evidence/%s/summary.md", f->run_id);
	remove_stale(dir);
	snprintf(f->tmp, sizeof f->tmp, "%s/" HIDDEN_PREFIX "%ld-XXXXXX", dir, (long)getpid());
	/* mkdtemp makes it 0700; a published folder is read like any other. */
	if (!mkdtemp(f->tmp) || chmod(f->tmp, 0755) != 0) {
		fprintf(stderr, "uarchgen: %s: %s\n", f->tmp, strerror(errno));
		return -1;
	}
	return 0;
}

static int write_bytes(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	size_t done = fwrite(data, 1, len, f);
	return (fclose(f) != 0 || done != len) ? -1 : 0;
}

static int write_text(const char *path, const char *text)
{
	return write_bytes(path, text, strlen(text));
}

int evidence_write(const struct evidence_folder *f, const struct entry_choice *entry, const struct run_facts *run)
{
	char path[1400];
	char *summary = evidence_summary(entry, run, f->run_id);
	char *plot = evidence_plot_body(entry, run);
	int rc = 0;
	snprintf(path, sizeof path, "%s/" ARCHIVE_FILE, f->tmp);
	rc = rc || write_bytes(path, run->archive->text, run->archive->text_len);
	snprintf(path, sizeof path, "%s/choice.csv", f->tmp);
	rc = rc || evidence_write_choices(path, run);
	snprintf(path, sizeof path, "%s/summary.md", f->tmp);
	rc = rc || write_text(path, summary);
	if (rc)
		fprintf(stderr, "uarchgen: %s: cannot write the evidence: %s\n", f->tmp, strerror(errno));
	rc = rc || plot_png("uarchgen", f->tmp, "plot.gp", "table.png", 1500, 700, plot);
	free(summary);
	free(plot);
	return rc;
}

/* 1 when a and b hold the same bytes. */
static int same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = read_file(a, &la), *y = read_file(b, &lb);
	int same = x && y && la == lb && memcmp(x, y, la) == 0;
	free(x);
	free(y);
	return same;
}

int evidence_publish(const struct evidence_folder *f)
{
	/* renameat2 with RENAME_NOREPLACE: a folder that appeared under the
	 * same name meanwhile is never replaced. */
	if (renameat2(AT_FDCWD, f->tmp, AT_FDCWD, f->final, RENAME_NOREPLACE) == 0)
		return 0;
	/* But one that holds this very archive is what an import of it left
	 * when it was killed between publishing and committing: the caller
	 * holds the database's lock and found no run of the archive, so the
	 * folder is nobody's, and this import takes its place. */
	char mine[1400], there[1400];
	snprintf(mine, sizeof mine, "%.1200s/" ARCHIVE_FILE, f->tmp);
	snprintf(there, sizeof there, "%.1200s/" ARCHIVE_FILE, f->final);
	if ((errno == EEXIST || errno == ENOTEMPTY) && same_file(mine, there)) {
		evidence_remove(f->final);
		if (renameat2(AT_FDCWD, f->tmp, AT_FDCWD, f->final, RENAME_NOREPLACE) == 0)
			return 0;
	}
	struct stat sb;
	if ((errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP) && stat(f->final, &sb) != 0 &&
	    rename(f->tmp, f->final) == 0)
		return 0; /* a file system without RENAME_NOREPLACE */
	fprintf(stderr, "uarchgen: %s: %s\n", f->final, strerror(errno));
	return -1;
}

void evidence_remove(const char *dir)
{
	static const char *const files[] = {ARCHIVE_FILE, "choice.csv", "summary.md", "plot.gp", "table.png"};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char path[1400];
		snprintf(path, sizeof path, "%.1200s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}
