#include "template.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

/* Helpers every template may use. freeze() makes query results read-only, so
 * that a template can only read the database, never edit what another
 * template will see, and makes reading a field that does not exist an error,
 * so that a typo fails in every branch, not only in the one that runs. A
 * field that exists but is NULL is listed in t._nil. */
static const char prelude[] =
	"local setmetatable, pairs, next, error, tostring, type, rawget = setmetatable, pairs, next, error, tostring, type, rawget\n"
	"function freeze(t)\n"
	"  if type(t) ~= 'table' then return t end\n"
	"  local inner, known_nil = {}, rawget(t, '_nil') or {}\n"
	"  for k, v in pairs(t) do if k ~= '_nil' then inner[k] = freeze(v) end end\n"
	"  return setmetatable({}, {\n"
	"    __index = function(_, k)\n"
	"      local v = inner[k]\n"
	"      if v == nil and type(k) == 'string' and not known_nil[k] then\n"
	"        error('no field \\'' .. k .. '\\' here (a typo?)', 2)\n"
	"      end\n"
	"      return v\n"
	"    end,\n"
	"    __newindex = function(_, k) error('query results are read-only (tried to set ' .. tostring(k) .. ')', 2) end,\n"
	"    __len = function() return #inner end,\n"
	"    __pairs = function() return next, inner, nil end,\n"
	"  })\n"
	"end\n"
	"function _uc_value(x, src)\n"
	"  local t = type(x)\n"
	"  if t == 'string' then return x end\n"
	"  if t == 'number' or t == 'boolean' then return tostring(x) end\n"
	"  error('${' .. src .. '} is ' .. (x == nil and 'nil' or 'a ' .. t), 2)\n"
	"end\n";

lua_State *template_state(void)
{
	lua_State *L = luaL_newstate();
	if (!L)
		return NULL;
	static const luaL_Reg libs[] = {
		{LUA_GNAME, luaopen_base},         {LUA_STRLIBNAME, luaopen_string},
		{LUA_TABLIBNAME, luaopen_table},   {LUA_MATHLIBNAME, luaopen_math},
		{LUA_UTF8LIBNAME, luaopen_utf8},   {NULL, NULL},
	};
	for (const luaL_Reg *lib = libs; lib->func; lib++) {
		luaL_requiref(L, lib->name, lib->func, 1);
		lua_pop(L, 1);
	}
	static const char *const removed[] = {"dofile", "loadfile", "load", "print", "rawset", "collectgarbage", NULL};
	for (const char *const *r = removed; *r; r++) {
		lua_pushnil(L);
		lua_setglobal(L, *r);
	}
	if (luaL_loadbuffer(L, prelude, sizeof prelude - 1, "=prelude") || lua_pcall(L, 0, 0, 0)) {
		lua_close(L);
		return NULL;
	}
	return L;
}

void template_push_env(lua_State *L)
{
	lua_newtable(L);
	lua_newtable(L);
	lua_pushglobaltable(L);
	lua_setfield(L, -2, "__index");
	lua_setmetatable(L, -2);
}

/* Appends s as a Lua short string literal: no raw newline may enter the
 * compiled line, or line numbers would drift. */
static void add_quoted(struct buf *b, const char *s, size_t n)
{
	buf_adds(b, "\"");
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c < 32 || c == 127)
			buf_printf(b, "\\%03d", c);
		else
			buf_add(b, (const char *)&c, 1);
	}
	buf_adds(b, "\"");
}

/* Finds the '}' closing a hole, skipping braces inside Lua strings. */
static const char *hole_end(const char *p, const char *end)
{
	int depth = 0;
	char quote = 0;
	for (; p < end; p++) {
		if (quote) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == quote)
				quote = 0;
		} else if (*p == '"' || *p == '\'') {
			quote = *p;
		} else if (*p == '{') {
			depth++;
		} else if (*p == '}') {
			if (depth-- == 0)
				return p;
		}
	}
	return NULL;
}

static int compile_text_line(struct buf *lua, const char *name, int lineno, const char *p, const char *end,
			     int newline, char **error)
{
	struct buf lit = {0};
	buf_adds(lua, "_uc_emit(");
	int first = 1;
	while (p < end) {
		if (end - p >= 3 && p[0] == '$' && p[1] == '$' && p[2] == '{') {
			buf_adds(&lit, "${");
			p += 3;
		} else if (end - p >= 2 && p[0] == '$' && p[1] == '{') {
			const char *close = hole_end(p + 2, end);
			if (!close) {
				*error = xasprintf("%s:%d: '${' is never closed on this line", name, lineno);
				buf_free(&lit);
				return -1;
			}
			if (lit.len) {
				buf_adds(lua, first ? "" : ", ");
				add_quoted(lua, lit.data, lit.len);
				lit.len = 0;
				first = 0;
			}
			buf_printf(lua, "%s_uc_value((%.*s), ", first ? "" : ", ", (int)(close - p - 2), p + 2);
			add_quoted(lua, p + 2, (size_t)(close - p - 2));
			buf_adds(lua, ")");
			first = 0;
			p = close + 1;
		} else {
			buf_add(&lit, p, 1);
			p++;
		}
	}
	if (newline)
		buf_adds(&lit, "\n");
	if (lit.len || first) {
		buf_adds(lua, first ? "" : ", ");
		add_quoted(lua, lit.data ? lit.data : "", lit.len);
	}
	buf_adds(lua, ")");
	buf_free(&lit);
	return 0;
}

char *template_compile(const char *name, const char *text, char **error)
{
	struct buf lua = {0};
	/* The sink rides on line 1 so that line N of the template is line N of the chunk. */
	buf_adds(&lua, "local _uc_emit = ...; ");
	const char *p = text;
	int lineno = 1;
	while (*p) {
		const char *eol = strchr(p, '\n');
		int newline = eol != NULL;
		if (!eol)
			eol = p + strlen(p);
		const char *s = p;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if (s < eol && *s == '@') {
			buf_add(&lua, s + 1, (size_t)(eol - s - 1));
		} else if (compile_text_line(&lua, name, lineno, p, eol, newline, error)) {
			buf_free(&lua);
			return NULL;
		}
		buf_adds(&lua, "\n");
		p = newline ? eol + 1 : eol;
		lineno++;
	}
	return lua.data ? lua.data : xstrdup("");
}

static int emit(lua_State *L)
{
	struct buf *out = lua_touserdata(L, lua_upvalueindex(1));
	int n = lua_gettop(L);
	for (int i = 1; i <= n; i++) {
		size_t len;
		const char *s = lua_tolstring(L, i, &len);
		if (s)
			buf_add(out, s, len);
	}
	return 0;
}

/* Errors raised inside C functions or the prelude carry no template position;
 * name the innermost template line on the stack so the message always points
 * at the template. */
static int add_position(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);
	const char *chunk = lua_tostring(L, lua_upvalueindex(1));
	if (!msg)
		msg = "(error object is not a string)";
	if (strncmp(msg, chunk, strlen(chunk)) == 0 && msg[strlen(chunk)] == ':') {
		lua_pushstring(L, msg);
		return 1;
	}
	lua_Debug ar;
	for (int level = 1; lua_getstack(L, level, &ar); level++) {
		lua_getinfo(L, "Sl", &ar);
		if (ar.currentline > 0 && strcmp(ar.short_src, chunk) == 0) {
			lua_pushfstring(L, "%s:%d: %s", chunk, ar.currentline, msg);
			return 1;
		}
	}
	lua_pushstring(L, msg);
	return 1;
}

int template_render(lua_State *L, const char *name, const char *text, struct buf *out, char **error)
{
	char *lua = template_compile(name, text, error);
	if (!lua)
		return -1;
	char *chunkname = xasprintf("@%s", name);
	int base = lua_gettop(L);
	lua_pushstring(L, name);
	lua_pushcclosure(L, add_position, 1);
	int rc = luaL_loadbuffer(L, lua, strlen(lua), chunkname);
	free(chunkname);
	free(lua);
	if (rc == LUA_OK) {
		template_push_env(L);
		lua_setupvalue(L, -2, 1);
		lua_pushlightuserdata(L, out);
		lua_pushcclosure(L, emit, 1);
		rc = lua_pcall(L, 1, 0, base + 1);
	}
	if (rc != LUA_OK) {
		const char *msg = lua_tostring(L, -1);
		*error = xstrdup(msg ? msg : "unknown Lua error");
	}
	lua_settop(L, base);
	return rc == LUA_OK ? 0 : -1;
}
