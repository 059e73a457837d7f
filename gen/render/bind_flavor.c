/* The global flavor, with its strategies and routines, and the stamp of
 * this flavor's files: set once per flavor, over bind_state's globals. */
#include "bind.h"

#include "../../common/sha256.h"
#include "../../common/util.h"
#include "bind_db.h"
#include "bind_plan.h"
#include "bind_lua.h"

#include <stdlib.h>
#include <string.h>

static int listed(const struct flavor *f, const char *name)
{
	for (size_t j = 0; name && j < f->n_routines; j++)
		if (strcmp(f->routines[j], name) == 0)
			return 1;
	return 0;
}

static int in_catalogue(lua_State *L, int catalogue, const char *name)
{
	int found = 0;
	for (lua_Integer i = 1; !found && lua_geti(L, catalogue, i) != LUA_TNIL; i++) {
		lua_getfield(L, -1, "name");
		found = strcmp(lua_tostring(L, -1), name) == 0;
		lua_pop(L, 2);
	}
	lua_pop(L, found ? 0 : 1);
	return found;
}

/* Sets field routines of the table on top: the flavor's routines, in the
 * catalogue's order. A name the catalogue does not hold is the database's
 * error, named by its row. */
static int set_routines(lua_State *L, const struct options *o, const struct flavor *f)
{
	if (bind_import(L, "routines"))
		return EXIT_FAIL;
	int catalogue = lua_gettop(L), bad = 0;
	for (size_t j = 0; j < f->n_routines; j++) {
		if (!in_catalogue(L, catalogue, f->routines[j])) {
			err("%s: table flavor_routine, row (flavor='%s', routine='%s'), column routine: "
			    "%s/lib/routines.lua has no such routine",
			    o->db_path, f->name, f->routines[j], o->templates_dir);
			bad = 1;
		}
	}
	lua_newtable(L);
	int n = 0;
	for (lua_Integer i = 1; lua_geti(L, catalogue, i) != LUA_TNIL; i++) {
		lua_getfield(L, -1, "name");
		int keep = listed(f, lua_tostring(L, -1));
		lua_pop(L, 1);
		if (keep)
			lua_rawseti(L, -2, ++n);
		else
			lua_pop(L, 1);
	}
	lua_pop(L, 1);
	lua_remove(L, catalogue);
	lua_setfield(L, -2, "routines");
	return bad ? EXIT_FAIL : 0;
}

int bind_flavor(lua_State *L, const struct model *m, const struct options *o, const struct flavor *f)
{
	lua_newtable(L);
	set_str(L, "name", f->name);
	set_str(L, "what", f->what);
	set_str(L, "isa", f->isa);
	set_int(L, "isa_level", f->isa_level);
	set_bool(L, "red_zone", f->red_zone);
	/* Its strategies: those it offers (strategy_offered), in code order. */
	set_bool(L, "moves", f->moves);
	bind_push_strategies(L, f->isa_level, f->moves);
	lua_setfield(L, -2, "strategies");
	if (set_routines(L, o, f)) {
		lua_pop(L, 1);
		return EXIT_FAIL;
	}
	set_global_frozen(L, "flavor");
	bind_plan(L, m, o, f);

	/* The stamp changes with the database, the generator, the flavor and the
	 * options, so out/ files from two different runs cannot be mixed unnoticed. */
	char *seed = xasprintf("%s %s flavor=%s prefix=%s target=%s memcpy=%d smap=%d result=%s endbr=%d",
			       UARCHGEN_VERSION, m->hash, f->name, o->prefix, o->target ? o->target : "", o->memcpy_symbol,
			       o->smap, o->user_copy_result, o->endbr);
	char stamp[65];
	sha256_hex(seed, strlen(seed), stamp);
	free(seed);
	stamp[8] = '\0';
	lua_newtable(L);
	set_str(L, "version", UARCHGEN_VERSION);
	set_str(L, "stamp", stamp);
	set_str(L, "templates", o->templates_dir);
	set_global_frozen(L, "gen");
	return 0;
}
