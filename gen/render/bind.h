/* Hands the database to Lua: read-only tables (db, flavor, gen, opts) and
 * the functions templates call (lookup, import). */
#ifndef UARCHGEN_BIND_H
#define UARCHGEN_BIND_H

#include "../model/model.h"
#include "options.h"

#include <lua.h>

/* A template state with db, opts, lookup, import and templates/lib/helpers.lua
 * loaded. NULL after printing why. */
lua_State *bind_state(const struct model *m, const struct options *o);

/* Sets the globals flavor (with its routines from templates/lib/routines.lua)
 * and gen (version, and the stamp of this flavor's files). Nonzero after
 * printing why. */
int bind_flavor(lua_State *L, const struct model *m, const struct options *o, const struct flavor *f);

/* Pushes import(module), templates/lib/<module>.lua. Nonzero, with nothing
 * pushed, after printing the error. */
int bind_import(lua_State *L, const char *module);

#endif
