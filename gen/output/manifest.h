/* MANIFEST: every output file and its sha256, in sha256sum's format. */
#ifndef UARCHGEN_MANIFEST_H
#define UARCHGEN_MANIFEST_H

#include "fileset.h"

#include <lua.h>

/* The banner (templates/lib/helpers.lua) of a file the generator writes
 * itself, named as made from template_name, its lines opened with "#":
 * a new string, or NULL after the error, which names file. */
char *manifest_banner(lua_State *L, const char *file, const char *template_name);

/* Appends MANIFEST to fs; its header is the templates' banner. */
int manifest_add(lua_State *L, struct fileset *fs);

/* 1 when text opens with the banner (within its first five lines). */
int manifest_has_banner(const struct buf *text);

#endif
