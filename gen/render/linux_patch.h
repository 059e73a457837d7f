/* gen --linux's linux/uarchcopy.patch: the generated copies as a patch a
 * Linux source tree takes (docs/vendoring.md, "Into Linux"). */
#ifndef UARCHGEN_LINUX_PATCH_H
#define UARCHGEN_LINUX_PATCH_H

#include "../output/fileset.h"

#include <lua.h>

/* A Linux tree the patch is written for: what differs between versions. */
struct linux_tree {
	const char *version;       /* "6.1", as --linux-version names it */
	const char *diff;          /* templates/linux/: the hunks on Linux's own files */
	const char *export_header; /* what a .S file includes for EXPORT_SYMBOL */
	/* The entries' baseline is Linux's own choice, not one forward rep
	 * movsb: a core with no measured table runs what the unpatched tree
	 * runs on it (docs/linux.md, "Linux 6.12"). */
	int own_baseline;
};

/* The tree of that version, or NULL. */
const struct linux_tree *linux_tree_find(const char *version);

/* The versions linux_tree_find knows, for a message ("6.1, 6.12"): the
 * caller frees it. */
char *linux_tree_versions(void);

/* Adds linux/uarchcopy.patch to fs, which must hold the kernel flavor's
 * files of this run, Linux's form among them. L is the renderer's state
 * (for the banner). Nonzero after printing the error. */
int linux_patch_add(lua_State *L, struct fileset *fs, const char *templates_dir, const struct linux_tree *tree);

#endif
