/* Writing an output directory whole or not at all.
 *
 * The new tree is written into a hidden sibling, .<name>.new-<pid>-XXXXXX,
 * then exchanged with the directory by renameat2(RENAME_EXCHANGE), one
 * atomic step, and the old tree (now under the sibling's name) removed.
 * Killed before the exchange, the run leaves the directory as it was;
 * after it, the new tree is complete. A later run removes the siblings of
 * runs that are no longer alive. Runs on one parent directory are
 * serialised with flock(2), so two at once leave one run's output.
 *
 * The old tree must be removable before the exchange (a read-only folder
 * in it would strand it, hidden, once exchanged), so that is checked
 * first; a tree that still cannot be removed is an error that names the
 * directory the user gave and the hidden one left, never silence. */
#include "output.h"
#include "tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static int make_dirs(const char *path)
{
	char *p = xstrdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			err("%s: cannot create directory: %s", p, strerror(errno));
			free(p);
			return -1;
		}
		*s = '/';
	}
	free(p);
	return 0;
}

static int write_file(const char *path, const struct buf *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	const char *data = text->data ? text->data : "";
	size_t len = text->len;
	if (fd < 0)
		return -1;
	while (len) {
		ssize_t n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return -1;
		}
		data += n, len -= (size_t)n;
	}
	return close(fd);
}

/* Removes the hidden tree that a run of dir made; -1, having said why and
 * how to remove it by hand, when it cannot. */
static int remove_hidden(const char *dir, const char *hidden, const char *what)
{
	char *failed;
	int error;
	if (tree_remove(hidden, &failed, &error) == 0)
		return 0;
	err("%s: %s, %s, cannot be removed: %s: %s; remove it by hand (chmod -R u+w %s && rm -rf %s)", dir, what,
	    hidden, failed, strerror(error), hidden, hidden);
	free(failed);
	return -1;
}

/* Removes the hidden siblings .<base>.new-<pid>-* and .<base>.old-<pid>-*
 * of runs no longer alive; the number it could not remove. */
static int remove_stale(const char *dir, const char *parent, const char *base)
{
	int stuck = 0;
	DIR *d = opendir(parent);
	struct dirent *e;
	char *prefix = xasprintf(".%s.new-", base), *old = xasprintf(".%s.old-", base);
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 && strncmp(e->d_name, old, strlen(old)) != 0)
			continue;
		long pid = strtol(e->d_name + strlen(prefix), NULL, 10);
		if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM))
			continue; /* a run still writing */
		char *path = xasprintf("%s/%s", parent, e->d_name);
		stuck += remove_hidden(dir, path, "the tree a stopped run left beside it") != 0;
		free(path);
	}
	if (d)
		closedir(d);
	free(prefix);
	free(old);
	return stuck;
}

static int same_file(const char *path, const struct buf *text)
{
	size_t len;
	char *have = read_file(path, &len);
	int same = have && len == text->len && memcmp(have, text->data ? text->data : "", len) == 0;
	free(have);
	return same;
}

/* The names the directory's MANIFEST lists: files an earlier run wrote,
 * which this run may drop. */
static int in_old_manifest(const char *dir, const char *rel)
{
	char *path = xasprintf("%s/MANIFEST", dir);
	size_t len;
	char *m = read_file(path, &len);
	int found = 0;
	free(path);
	for (char *line = m; m && line && *line && !found;) {
		char *end = strchr(line, '\n');
		if (end)
			*end = '\0';
		char *name = strstr(line, "  ");
		found = name && line[0] != '#' && strcmp(name + 2, rel) == 0;
		line = end ? end + 1 : NULL;
	}
	free(m);
	return found;
}

/* A file under dir that this run does not write and no earlier run wrote
 * (its MANIFEST does not list it): replacing dir would lose it, so it stops
 * the run. */
static int foreign(const char *dir, const char *rel)
{
	if (in_old_manifest(dir, rel))
		return 0;
	err("%s/%s: not written by uarchgen, and the directory is replaced whole: move it away", dir, rel);
	return 1;
}

/* 1 when dir holds exactly the files of fs, each with the same bytes. */
static int unchanged(const struct fileset *fs, const char *dir)
{
	for (size_t i = 0; i < fs->n; i++) {
		char *path = xasprintf("%s/%s", dir, fs->files[i].path);
		int same = same_file(path, &fs->files[i].text);
		free(path);
		if (!same)
			return 0;
	}
	return 1;
}

/* Writes the tree into tmp: an unchanged file is a hard link to the old
 * one, so its time stays and make stays quiet. */
static int write_tree(const struct fileset *fs, const char *dir, const char *tmp, int verbose)
{
	for (size_t i = 0; i < fs->n; i++) {
		char *old = xasprintf("%s/%s", dir, fs->files[i].path);
		char *new = xasprintf("%s/%s", tmp, fs->files[i].path);
		int rc = make_dirs(new);
		if (!rc && same_file(old, &fs->files[i].text) && link(old, new) == 0) {
			/* kept */
		} else if (!rc && write_file(new, &fs->files[i].text) == 0) {
			if (verbose)
				printf("  GEN     %s\n", old);
		} else {
			if (!rc)
				err("%s: cannot write: %s", old, strerror(errno));
			rc = -1;
		}
		free(old);
		free(new);
		if (rc)
			return -1;
	}
	return 0;
}

/* Where the file system cannot exchange two names (some network and
 * overlay file systems): the old tree moves aside, then the new one into
 * place. Between the two renames the directory is missing for an instant,
 * never mixed; a kill there leaves the old tree beside it, which the next
 * run removes. */
static int swap_by_two_renames(const char *tmp, const char *dir, int *stranded)
{
	char *aside = xstrdup(tmp);
	char *mark = strstr(aside, ".new-");
	memcpy(mark, ".old-", 5);
	if (rename(dir, aside) != 0) {
		free(aside);
		return -1;
	}
	if (rename(tmp, dir) != 0) {
		rename(aside, dir);
		free(aside);
		return -1;
	}
	*stranded = remove_hidden(dir, aside, "written, but the old tree it replaced") != 0;
	free(aside);
	return 0;
}

int output_write(const struct fileset *fs, const char *dir, int verbose)
{
	char *copy = xstrdup(dir);
	while (strlen(copy) > 1 && copy[strlen(copy) - 1] == '/')
		copy[strlen(copy) - 1] = '\0';
	char *slash = strrchr(copy, '/');
	char *parent = slash ? (slash == copy ? xstrdup("/") : xasprintf("%.*s", (int)(slash - copy), copy)) : xstrdup(".");
	const char *base = slash ? slash + 1 : copy;
	struct stat sb;
	int exists = stat(copy, &sb) == 0, rc = EXIT_FAIL, stranded = 0, error = 0;
	char *unwritable = NULL;
	char *tmp = xasprintf("%s/.%s.new-%ld-XXXXXX", parent, base, (long)getpid());

	if (exists && !S_ISDIR(sb.st_mode)) {
		err("%s: exists and is not a directory", copy);
		goto out;
	}
	char *parent_slash = xasprintf("%s/", parent);
	int made = exists || make_dirs(parent_slash) == 0;
	free(parent_slash);
	if (!made)
		goto out;
	int lock = open(parent, O_RDONLY | O_DIRECTORY);
	if (lock < 0 || flock(lock, LOCK_EX) != 0) {
		err("%s: cannot lock the directory that holds %s: %s", parent, base, strerror(errno));
		if (lock >= 0)
			close(lock);
		goto out;
	}
	if (remove_stale(copy, parent, base) != 0) {
		err("%s: nothing was written", copy);
	} else if (exists && output_ungenerated(fs, copy, foreign) != 0) {
		err("%s: nothing was written", copy);
	} else if (exists && unchanged(fs, copy)) {
		rc = 0; /* nothing to write: a read-only directory is fine */
	} else if (exists && tree_removable(copy, &unwritable, &error) != 0) {
		err("%s: cannot be replaced: %s is not writable (%s); nothing was written", copy, unwritable,
		    strerror(error));
	} else if (!mkdtemp(tmp)) {
		err("%s: cannot write its new tree into %s, the directory that holds it: %s; nothing was written", copy,
		    parent, strerror(errno));
	} else if (chmod(tmp, 0755) != 0 || write_tree(fs, copy, tmp, verbose) != 0) {
		remove_hidden(copy, tmp, "the part of its new tree written");
		err("%s: nothing was written", copy);
	} else if (!exists) {
		rc = rename(tmp, copy) == 0 ? 0 : EXIT_FAIL;
		if (rc) {
			err("%s: cannot rename into place: %s", copy, strerror(errno));
			remove_hidden(copy, tmp, "its new tree");
		}
	} else if (renameat2(AT_FDCWD, tmp, AT_FDCWD, copy, RENAME_EXCHANGE) == 0) {
		/* the old tree, now under the temporary name */
		stranded = remove_hidden(copy, tmp, "written, but the old tree it replaced") != 0;
		rc = 0;
	} else if ((errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP) &&
		   swap_by_two_renames(tmp, copy, &stranded) == 0) {
		rc = 0;
	} else {
		err("%s: cannot exchange the new tree with the old one (%s); nothing was written", copy,
		    strerror(errno));
		remove_hidden(copy, tmp, "its new tree");
	}
	if (stranded)
		rc = EXIT_FAIL;
	free(unwritable);
	close(lock);
out:
	free(tmp);
	free(parent);
	free(copy);
	return rc;
}
