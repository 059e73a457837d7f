/* git's merge driver for out/: every file of out/ is what the generator
 * writes from uarch.db, so a file both branches regenerated is not merged
 * as text but written again, from the merge of the three commits' uarch.db.
 * Right after `git merge`, `uarchgen check` then passes. */
#include "merge.h"

#include "../../common/util.h"
#include "../model/model.h"
#include "../render/options.h"
#include "../render/render.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Runs git with argv, its standard output into *out (may be NULL). Returns
 * git's exit status, or -1 when it could not run. */
static int git(const char *const argv[], struct buf *out)
{
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execvp("git", (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	char chunk[65536];
	ssize_t n;
	while ((n = read(fds[0], chunk, sizeof chunk)) > 0)
		if (out)
			buf_add(out, chunk, (size_t)n);
	close(fds[0]);
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* git's output, one line: a commit id (40 or 64 hex digits). */
static int git_oid(const char *const argv[], char oid[65])
{
	struct buf b = {0};
	int rc = git(argv, &b);
	size_t n = rc == 0 && b.data ? strspn(b.data, "0123456789abcdef") : 0;
	if (n == 40 || n == 64) {
		memcpy(oid, b.data, n);
		oid[n] = '\0';
	} else {
		rc = -1;
	}
	buf_free(&b);
	return rc;
}

/* The commit being merged in. `git merge` names each head it merges in
 * the environment of its merge drivers, as GITHEAD_<commit>=<name>; one
 * head is a two-way merge, the only kind this driver resolves. */
static int theirs_commit(char oid[65])
{
	int found = 0;
	for (char **e = environ; *e; e++) {
		if (strncmp(*e, "GITHEAD_", 8) != 0)
			continue;
		size_t n = strcspn(*e + 8, "=");
		if (n < 40 || n > 64)
			continue;
		memcpy(oid, *e + 8, n);
		oid[n] = '\0';
		found++;
	}
	return found == 1 ? 0 : -1;
}

static int save_blob(const char *rev, const char *path)
{
	char *spec = xasprintf("%s:uarch.db", rev);
	const char *argv[] = {"git", "cat-file", "blob", spec, NULL};
	struct buf b = {0};
	int rc = git(argv, &b);
	free(spec);
	if (rc == 0) {
		FILE *f = fopen(path, "wb");
		rc = !f || fwrite(b.data ? b.data : "", 1, b.len, f) != b.len;
		if (f && fclose(f) != 0)
			rc = 1;
	}
	buf_free(&b);
	return rc;
}

/* The merged database's files, rendered as `make` renders them. */
static int render_merged(const char *db, struct fileset *fs)
{
	struct model m;
	struct options o = {.db_path = db, .templates_dir = "templates", .out_dir = "out", .prefix = "uc_",
			    .user_copy_result = "status", .endbr = 1};
	if (model_load_unfiled(&m, db))
		return -1;
	return render_all(&m, &o, fs);
}

int merge_out_command(const char *ours_file, const char *path)
{
	static const char fix[] = "after the merge: make, then git add out";
	char theirs[65], ours[65], base[65];
	const char *head[] = {"git", "rev-parse", "HEAD", NULL};
	if (strncmp(path, "out/", 4) != 0) {
		err("merge-out: %s is not a file of out/", path);
		return EXIT_FAIL;
	}
	if (theirs_commit(theirs) || git_oid(head, ours)) {
		err("merge-out: %s: cannot tell which two commits are merged (only `git merge` of one branch names "
		    "them); %s",
		    path, fix);
		return EXIT_FAIL;
	}
	const char *merge_base[] = {"git", "merge-base", ours, theirs, NULL};
	const char *same_generator[] = {"git", "diff", "--quiet", ours, theirs, "--",
					"templates", "gen", "derive", "common", NULL};
	if (git_oid(merge_base, base)) {
		err("merge-out: %s: the branches have no merge base; %s", path, fix);
		return EXIT_FAIL;
	}
	if (git(same_generator, NULL) != 0) {
		err("merge-out: %s: the branches changed the generator or its templates, so out/ cannot be written "
		    "before both are merged; %s",
		    path, fix);
		return EXIT_FAIL;
	}
	char dir[] = "/tmp/uarchgen-merge-XXXXXX";
	if (!mkdtemp(dir)) {
		err("merge-out: %s", strerror(errno));
		return EXIT_FAIL;
	}
	char *db[4];
	static const char *const names[] = {"base.db", "ours.db", "theirs.db", "merged.db"};
	for (int i = 0; i < 4; i++)
		db[i] = xasprintf("%s/%s", dir, names[i]);
	int rc = save_blob(base, db[0]) || save_blob(ours, db[1]) || save_blob(theirs, db[2]);
	if (rc)
		err("merge-out: %s: cannot read uarch.db of the merged commits; %s", path, fix);
	if (!rc && merge_databases(db[0], db[1], db[2], db[3], 1) != 0) {
		err("merge-out: %s: left as ours: uarch.db does not merge (its driver says why); %s", path, fix);
		rc = 1;
	}
	struct fileset fs = {0};
	rc = rc || render_merged(db[3], &fs) != 0;
	const struct out_file *file = NULL;
	for (size_t i = 0; !rc && i < fs.n; i++)
		if (strcmp(fs.files[i].path, path + 4) == 0)
			file = &fs.files[i];
	if (!rc && !file) {
		err("merge-out: %s is not generated from the merged database; %s", path, fix);
		rc = 1;
	}
	if (!rc && write_file_replacing(ours_file, file->text.data ? file->text.data : "", file->text.len) != 0) {
		err("merge-out: %s: %s", ours_file, strerror(errno));
		rc = 1;
	}
	fileset_free(&fs);
	for (int i = 0; i < 4; i++) {
		unlink(db[i]);
		free(db[i]);
	}
	rmdir(dir);
	return rc ? EXIT_FAIL : 0;
}
