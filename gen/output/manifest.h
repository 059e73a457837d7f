/* MANIFEST: every output file and its sha256, in sha256sum's format. */
#ifndef UARCHGEN_MANIFEST_H
#define UARCHGEN_MANIFEST_H

#include "fileset.h"

#include <lua.h>

/* Appends MANIFEST to fs; its header is the templates' banner. */
int manifest_add(lua_State *L, struct fileset *fs);

/* 1 when text opens with the banner (within its first five lines). */
int manifest_has_banner(const struct buf *text);

#endif
