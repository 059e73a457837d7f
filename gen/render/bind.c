#include "bind.h"

#include "../../common/rule_limits.h"
#include "../../common/sha256.h"
#include "../../common/util.h"
#include "template.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

/* A NULL column is still a field: freeze() learns its name from _nil, so
 * that reading it gives nil while reading a misspelt field is an error. */
static void set_str(lua_State *L, const char *key, const char *v)
{
	if (v) {
		lua_pushstring(L, v);
		lua_setfield(L, -2, key);
		return;
	}
	if (lua_getfield(L, -1, "_nil") != LUA_TTABLE) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushvalue(L, -1);
		lua_setfield(L, -3, "_nil");
	}
	lua_pushboolean(L, 1);
	lua_setfield(L, -2, key);
	lua_pop(L, 1);
}

static void set_int(lua_State *L, const char *key, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, key);
}

static void set_bool(lua_State *L, const char *key, int v)
{
	lua_pushboolean(L, v);
	lua_setfield(L, -2, key);
}

/* Replaces the table on top of the stack by its frozen copy. */
static void freeze_top(lua_State *L)
{
	lua_getglobal(L, "freeze");
	lua_insert(L, -2);
	lua_call(L, 1, 1);
}

#define CLASS_NAME(id, name) name,
static const char *const class_names[] = {DISTANCE_CLASSES(CLASS_NAME)};
#undef CLASS_NAME
#define STRATEGY_ROW(id, name, min_n, max_n, isa, letter, fallback, code, direction, streams, aligns, clobbers, what) \
	{name, min_n, max_n, isa, letter, fallback, code, direction, streams, aligns, clobbers, what},
static const struct {
	const char *name;
	int min_n, max_n, isa;
	char letter;
	int fallback, code, direction, streams, aligns;
	const char *clobbers, *what;
} strategies[] = {STRATEGIES(STRATEGY_ROW)};
#undef STRATEGY_ROW
#define ISA_NAME(id, name) name,
static const char *const isa_names[] = {ISA_LEVELS(ISA_NAME)};
#undef ISA_NAME
#define DIRECTION_NAME(id, name) name,
static const char *const direction_names[] = {DIRECTIONS(DIRECTION_NAME)};
#undef DIRECTION_NAME

static const char *const status_names[] = {"baseline", "inherited", "measured"};

/* A band as Lua sees it: lo, hi (-1: no bound) and a strategy name per class. */
static void push_band(lua_State *L, const struct band *b)
{
	lua_newtable(L);
	set_int(L, "lo", b->lo);
	set_int(L, "hi", b->hi == BAND_UNBOUNDED ? -1 : (lua_Integer)b->hi);
	for (int c = 0; c < N_DISTANCE_CLASSES; c++)
		set_str(L, class_names[c], strategies[b->strategy[c]].name);
}

/* What a core gets: status, the table (bands and class bounds), and the
 * facts of the measurement behind it (nil on the baseline). */
static void push_resolved(lua_State *L, const struct resolved_rule *rr)
{
	const struct rule *t = rr->table;
	int measured = rr->status != RULE_BASELINE;
	lua_newtable(L);
	set_str(L, "status", status_names[rr->status]);
	set_str(L, "source", rr->source);
	set_str(L, "reason", rr->reason);
	set_int(L, "above_max", t->above_max);
	set_int(L, "near_max", t->near_max);
	set_int(L, "below_max", t->below_max);
	set_int(L, "zero_mod", t->zero_mod);
	set_int(L, "align_dst", t->align_dst);
	lua_newtable(L);
	for (int i = 0; i < t->n_bands; i++) {
		push_band(L, &t->bands[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "bands");
	set_str(L, "evidence", measured ? t->evidence : NULL);
	set_str(L, "method", measured ? t->method : NULL);
	set_str(L, "measured_on", measured ? t->measured_on : NULL);
	set_str(L, "cpu_signature", measured ? t->cpu_signature : NULL);
	set_str(L, "hypervisor", measured ? t->hypervisor : NULL);
}

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
	push_resolved(L, &rr);
	set_str(L, "entry", u ? u->name : NULL);
	freeze_top(L);
	return 1;
}

static void push_entry(lua_State *L, const struct model *m, const struct uarch *u)
{
	lua_newtable(L);
	set_str(L, "name", u->name);
	set_str(L, "vendor", u->vendor);
	set_str(L, "example", u->example);
	set_str(L, "cpuid_limit", u->cpuid_limit);
	lua_newtable(L);
	int n = 0;
	for (size_t j = 0; j < m->n_ranges; j++) {
		const struct cpuid_range *r = &m->ranges[j];
		if (strcmp(r->uarch, u->name) != 0)
			continue;
		lua_newtable(L);
		set_int(L, "family", r->family);
		set_int(L, "model_lo", r->model_lo);
		set_int(L, "model_hi", r->model_hi);
		set_str(L, "source", r->source);
		lua_rawseti(L, -2, ++n);
	}
	lua_setfield(L, -2, "ranges");
	lua_newtable(L);
	for (size_t f = 0; f < m->n_flavors; f++) {
		struct resolved_rule rr = model_resolve(m, u->name, m->flavors[f].name);
		push_resolved(L, &rr);
		lua_setfield(L, -2, m->flavors[f].name);
	}
	lua_setfield(L, -2, "rules");
}

static void push_model(lua_State *L, const struct model *m)
{
	lua_newtable(L);
	set_str(L, "hash", m->hash);
	set_int(L, "schema_version", UARCH_SCHEMA_VERSION);
	static const int aligns[] = {ALIGN_DST_VALUES};
	lua_newtable(L);
	for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; i++) {
		lua_pushinteger(L, aligns[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "align_dst_values");

	lua_newtable(L);
	for (size_t i = 0; i < m->n_flavors; i++) {
		lua_newtable(L);
		set_str(L, "name", m->flavors[i].name);
		set_str(L, "what", m->flavors[i].what);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "flavors");

	lua_newtable(L);
	for (size_t i = 0; i < m->n_uarchs; i++) {
		push_entry(L, m, &m->uarchs[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "entries");


	/* The strategy catalogue and the distance classes, in code order. */
	lua_newtable(L);
	for (size_t i = 0; i < sizeof strategies / sizeof strategies[0]; i++) {
		lua_newtable(L);
		set_str(L, "name", strategies[i].name);
		set_int(L, "code", strategies[i].code);
		set_int(L, "min_n", strategies[i].min_n);
		set_int(L, "max_n", strategies[i].max_n);
		set_str(L, "isa", isa_names[strategies[i].isa]);
		set_int(L, "isa_level", strategies[i].isa);
		char letter[2] = {strategies[i].letter, '\0'};
		set_str(L, "letter", letter);
		set_str(L, "fallback", strategies[strategies[i].fallback].name);
		set_str(L, "direction", direction_names[strategies[i].direction]);
		lua_pushboolean(L, strategies[i].streams);
		lua_setfield(L, -2, "streams");
		lua_pushboolean(L, strategies[i].aligns);
		lua_setfield(L, -2, "aligns");
		set_str(L, "clobbers", strategies[i].clobbers);
		set_str(L, "what", strategies[i].what);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "strategies");
	lua_newtable(L);
	for (int k = 0; k < N_ISA_LEVELS; k++) {
		lua_pushstring(L, isa_names[k]);
		lua_rawseti(L, -2, k + 1);
	}
	lua_setfield(L, -2, "isa_levels");
	lua_newtable(L);
	for (int c = 0; c < N_DISTANCE_CLASSES; c++) {
		lua_pushstring(L, class_names[c]);
		lua_rawseti(L, -2, c + 1);
	}
	lua_setfield(L, -2, "classes");
	set_int(L, "max_bands", MAX_BANDS);
	set_int(L, "class_bound_max", CLASS_BOUND_MAX);
	set_str(L, "baseline", strategies[BASELINE_STRATEGY].name);
}

static void set_global_frozen(lua_State *L, const char *name)
{
	freeze_top(L);
	lua_setglobal(L, name);
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
	push_model(L, m);
	set_global_frozen(L, "db");

	lua_newtable(L);
	set_str(L, "prefix", o->prefix);
	set_str(L, "target", o->target);
	set_bool(L, "memcpy_symbol", o->memcpy_symbol);
	set_bool(L, "smap", o->smap);
	set_bool(L, "endbr", o->endbr);
	set_str(L, "user_copy_result", o->user_copy_result);
	set_global_frozen(L, "opts");

	lua_newtable(L);
	set_str(L, "version", UARCHGEN_VERSION);
	set_global_frozen(L, "gen");

	lua_pushcfunction(L, l_lookup);
	lua_setglobal(L, "lookup");
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
	/* Its strategies: those its isa allows, in code order. */
	lua_newtable(L);
	for (size_t i = 0, k = 0; i < sizeof strategies / sizeof strategies[0]; i++)
		if (strategies[i].isa <= f->isa_level) {
			lua_pushstring(L, strategies[i].name);
			lua_rawseti(L, -2, (lua_Integer)++k);
		}
	lua_setfield(L, -2, "strategies");
	if (set_routines(L, o, f)) {
		lua_pop(L, 1);
		return EXIT_FAIL;
	}
	set_global_frozen(L, "flavor");

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
	set_global_frozen(L, "gen");
	return 0;
}
