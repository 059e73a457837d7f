/* The template state: the globals db, opts and gen, and the functions
 * lookup and import that templates call. The flavor's globals are
 * bind_flavor.c's. */
#include "bind.h"

#include "../../common/util.h"
#include "bind_cases.h"
#include "bind_db.h"
#include "bind_lua.h"
#include "bind_plan.h"
#include "bind_text.h"
#include "linux_patch.h"
#include "template.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

static const struct model *lua_model;
static const char *lua_templates_dir;

/* import(name): the value of templates/lib/<name>.lua, read-only, loaded once
 * per run. Lists that several templates share live there, written once. */
static int l_import(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_'))
			return luaL_error(L, "import('%s'): a module name is [a-z0-9_]", name);
	lua_getfield(L, LUA_REGISTRYINDEX, "uarchgen.imports");
	if (lua_getfield(L, -1, name) != LUA_TNIL)
		return 1;
	lua_pop(L, 1);
	char *path = xasprintf("%s/lib/%s.lua", lua_templates_dir, name);
	size_t len;
	char *text = read_file(path, &len);
	if (!text) {
		lua_pushfstring(L, "import('%s'): cannot read %s", name, path);
		free(path);
		return lua_error(L);
	}
	char *chunk = xasprintf("@%s", path);
	int rc = luaL_loadbuffer(L, text, len, chunk);
	free(chunk);
	free(text);
	free(path);
	if (rc != LUA_OK)
		return lua_error(L);
	template_push_env(L); /* a module, like a template, writes no global */
	lua_setupvalue(L, -2, 1);
	lua_call(L, 0, 1);
	freeze_top(L);
	lua_pushvalue(L, -1);
	lua_setfield(L, -3, name);
	return 1;
}

/* lookup(vendor, family, model, flavor): what the database gives a CPU, for
 * the generated tests' expected values. Computed here, in the generator, not
 * by the generated table it checks. */
static int l_lookup(lua_State *L)
{
	const char *vendor = luaL_checkstring(L, 1);
	int family = (int)luaL_checkinteger(L, 2);
	int model = (int)luaL_checkinteger(L, 3);
	const char *flavor = luaL_checkstring(L, 4);
	struct resolved_rule rr;
	const struct uarch *u = model_lookup(lua_model, vendor, family, model, flavor, &rr);
	bind_push_resolved(L, &rr);
	set_str(L, "entry", u ? u->name : NULL);
	freeze_top(L);
	return 1;
}

int bind_import(lua_State *L, const char *module)
{
	lua_getglobal(L, "import");
	lua_pushstring(L, module);
	if (lua_pcall(L, 1, 1, 0) == LUA_OK)
		return 0;
	err("%s", lua_tostring(L, -1));
	lua_pop(L, 1);
	return EXIT_FAIL;
}

lua_State *bind_state(const struct model *m, const struct options *o)
{
	lua_State *L = template_state();
	if (!L) {
		err("cannot start Lua");
		return NULL;
	}
	lua_model = m;
	lua_templates_dir = o->templates_dir;
	bind_push_db(L, m);
	set_global_frozen(L, "db");

	lua_newtable(L);
	set_str(L, "prefix", o->prefix);
	set_str(L, "target", o->target);
	set_bool(L, "memcpy_symbol", o->memcpy_symbol);
	set_bool(L, "smap", o->smap);
	set_bool(L, "endbr", o->endbr);
	set_str(L, "user_copy_result", o->user_copy_result);
	set_bool(L, "linux", o->linux_form);
	const struct linux_tree *tree = o->linux_form ? linux_tree_find(o->linux_version) : NULL;
	set_str(L, "linux_export_header", tree ? tree->export_header : NULL);
	set_bool(L, "linux_own_baseline", tree && tree->own_baseline);
	set_global_frozen(L, "opts");

	lua_newtable(L);
	set_str(L, "version", UARCHGEN_VERSION);
	set_str(L, "templates", o->templates_dir);
	set_global_frozen(L, "gen");

	lua_pushcfunction(L, l_lookup);
	lua_setglobal(L, "lookup");
	bind_choice(L);
	bind_cases(L);
	bind_text(L);
	lua_newtable(L);
	lua_setfield(L, LUA_REGISTRYINDEX, "uarchgen.imports");
	lua_pushcfunction(L, l_import);
	lua_setglobal(L, "import");

	char *helpers = xasprintf("%s/lib/helpers.lua", o->templates_dir);
	size_t len;
	char *text = read_file(helpers, &len);
	char *chunk = xasprintf("@%s", helpers);
	if (!text)
		err("%s: cannot read the template helpers", helpers);
	else if (luaL_loadbuffer(L, text, len, chunk) || lua_pcall(L, 0, 0, 0))
		err("%s", lua_tostring(L, -1));
	int ok = text && lua_gettop(L) == 0;
	free(chunk);
	free(text);
	free(helpers);
	if (!ok) {
		lua_close(L);
		return NULL;
	}
	return L;
}
