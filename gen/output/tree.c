#include "tree.h"

#include "../../common/util.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* nftw passes no context: one walk at a time, in a program with one thread. */
static char *first_path;
static int first_error;

static void note(const char *path, int error)
{
	if (!first_path) {
		first_path = xstrdup(path);
		first_error = error;
	}
}

static int remove_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb, (void)ftw;
	if (type == FTW_DNR)
		note(path, EACCES);
	else if (remove(path) != 0)
		note(path, errno);
	return 0; /* on: what can go, goes */
}

int tree_remove(const char *path, char **failed, int *error)
{
	first_path = NULL;
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0 && errno != ENOENT)
		note(path, errno);
	*failed = first_path;
	*error = first_error;
	return first_path ? -1 : 0;
}

/* Removing an entry writes its directory; reading the directory finds the
 * entries. access() says what the kernel would: it knows read-only mounts,
 * immutable files and, for root, that mode bits do not stop it. */
static int check_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb, (void)ftw;
	if (type == FTW_DNR) {
		note(path, EACCES);
		return 1;
	}
	if (type == FTW_D && access(path, R_OK | W_OK | X_OK) != 0) {
		note(path, errno);
		return 1;
	}
	return 0;
}

int tree_removable(const char *path, char **dir, int *error)
{
	first_path = NULL;
	if (nftw(path, check_entry, 16, FTW_PHYS) < 0)
		note(path, errno);
	*dir = first_path;
	*error = first_error;
	return first_path ? -1 : 0;
}
