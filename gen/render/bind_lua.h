/* Lua tables from C, for the bind*.c files: a field of each kind, and the
 * frozen copy templates see. Inline: each is a few calls into Lua. */
#ifndef UARCHGEN_BIND_LUA_H
#define UARCHGEN_BIND_LUA_H

#include <lua.h>

/* A NULL column is still a field: freeze() learns its name from _nil, so
 * that reading it gives nil while reading a misspelt field is an error. */
static inline void set_str(lua_State *L, const char *key, const char *v)
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

static inline void set_int(lua_State *L, const char *key, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, key);
}

static inline void set_bool(lua_State *L, const char *key, int v)
{
	lua_pushboolean(L, v);
	lua_setfield(L, -2, key);
}

/* Replaces the table on top of the stack by its frozen copy. */
static inline void freeze_top(lua_State *L)
{
	lua_getglobal(L, "freeze");
	lua_insert(L, -2);
	lua_call(L, 1, 1);
}

static inline void set_global_frozen(lua_State *L, const char *name)
{
	freeze_top(L);
	lua_setglobal(L, name);
}

#endif
