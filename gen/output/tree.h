/* A directory tree removed whole, or known beforehand not to be removable
 * (tree.c): a run that replaces out/ must not find out only after the
 * exchange that it cannot remove the old tree. */
#ifndef UARCHGEN_TREE_H
#define UARCHGEN_TREE_H

/* Removes path and everything under it. On failure returns -1 and sets
 * *failed (malloc'd: the first entry that stayed) and *error (its errno);
 * the rest is removed as far as it can be. */
int tree_remove(const char *path, char **failed, int *error);

/* 0 when every directory under path (path too) can be written and read, so
 * that tree_remove can empty it; else -1, with *dir (malloc'd) the first
 * that cannot and *error why. */
int tree_removable(const char *path, char **dir, int *error);

#endif
