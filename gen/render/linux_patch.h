/* gen --linux's linux/uarchcopy.patch: the generated copies as a patch a
 * Linux source tree takes (docs/vendoring.md, "Into Linux"). */
#ifndef UARCHGEN_LINUX_PATCH_H
#define UARCHGEN_LINUX_PATCH_H

#include "../output/fileset.h"

#include <lua.h>

/* Adds linux/uarchcopy.patch to fs, which must hold the kernel flavor's
 * files of this run, Linux's form among them. L is the renderer's state
 * (for the banner). Nonzero after printing the error. */
int linux_patch_add(lua_State *L, struct fileset *fs, const char *templates_dir);

#endif
