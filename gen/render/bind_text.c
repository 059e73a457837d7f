/* Text the templates print, made safe or shaped in C (bind_text.h). */
#include "bind_text.h"

#include "../../common/rule_limits.h"
#include "../../common/strategies.h"
#include "../../plan/table.h"
#include "bind_plan.h"

#include <lauxlib.h>
#include <stdio.h>
#include <string.h>

/* A control character, as Lua's %c (iscntrl in the C locale). */
static int control(unsigned char c)
{
	return c < 32 || c == 127;
}

/* c_string(s): database text as a C string literal: quote, backslash and
 * every byte outside printable ASCII escaped, so that no text can end the
 * literal. */
static int l_c_string(lua_State *L)
{
	size_t len;
	const char *s = luaL_checklstring(L, 1, &len);
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	luaL_addchar(&b, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (control(c) || c == '"' || c == '\\' || c >= 127) {
			char esc[5];
			esc[0] = '\\';
			esc[1] = (char)('0' + (c >> 6));
			esc[2] = (char)('0' + (c >> 3 & 7));
			esc[3] = (char)('0' + (c & 7));
			esc[4] = 0;
			luaL_addstring(&b, esc);
		} else {
			luaL_addchar(&b, (char)c);
		}
	}
	luaL_addchar(&b, '"');
	luaL_pushresult(&b);
	return 1;
}

/* The string at the top with every from (2 bytes) made to (3 bytes),
 * left to right, replacing it. */
static void replace_pairs(lua_State *L, const char *from, const char *to)
{
	size_t len;
	const char *s = lua_tolstring(L, -1, &len);
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	for (size_t i = 0; i < len; i++) {
		if (i + 1 < len && s[i] == from[0] && s[i + 1] == from[1]) {
			luaL_addstring(&b, to);
			i++;
		} else {
			luaL_addchar(&b, s[i]);
		}
	}
	luaL_pushresult(&b);
	lua_remove(L, -2);
}

/* The string at the top with each control character made '?', and, with
 * bar, each '|' made "\|", replacing it. */
static void replace_controls(lua_State *L, int bar)
{
	size_t len;
	const char *s = lua_tolstring(L, -1, &len);
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	for (size_t i = 0; i < len; i++) {
		if (control((unsigned char)s[i]))
			luaL_addchar(&b, '?');
		else if (bar && s[i] == '|')
			luaL_addstring(&b, "\\|");
		else
			luaL_addchar(&b, s[i]);
	}
	luaL_pushresult(&b);
	lua_remove(L, -2);
}

/* c_comment(s): database text inside a C (or GAS) comment: a comment
 * delimiter loses its meaning, and control characters become '?'. (The
 * generator refuses such text already; this is the second wall.) */
static int l_c_comment(lua_State *L)
{
	luaL_checkstring(L, 1);
	lua_settop(L, 1);
	replace_pairs(L, "*/", "* /");
	replace_pairs(L, "/*", "/ *");
	replace_controls(L, 0);
	return 1;
}

/* md_cell(s): database text in a Markdown table cell: a bar would end the
 * cell, so it is escaped. (The generator refuses text that is not one
 * printable line.) */
static int l_md_cell(lua_State *L)
{
	luaL_checkstring(L, 1);
	lua_settop(L, 1);
	replace_controls(L, 1);
	return 1;
}

/* wrap(text, width): text in lines of at most width characters, broken at
 * spaces (a word longer than width is a line of its own). */
static int l_wrap(lua_State *L)
{
	size_t len;
	const char *s = luaL_checklstring(L, 1, &len), *end = s + len;
	size_t width = (size_t)luaL_checkinteger(L, 2), line = 0;
	int n = 0;
	luaL_Buffer b;
	lua_newtable(L);
	luaL_buffinit(L, &b);
	for (const char *p = s; p < end;) {
		while (p < end && strchr(" \t\n\r\f\v", *p))
			p++;
		const char *w = p;
		while (p < end && !strchr(" \t\n\r\f\v", *p))
			p++;
		size_t wl = (size_t)(p - w);
		if (!wl)
			break;
		if (line && line + 1 + wl > width) {
			luaL_pushresult(&b);
			lua_rawseti(L, -2, ++n);
			luaL_buffinit(L, &b);
			line = 0;
		}
		if (line) {
			luaL_addchar(&b, ' ');
			line++;
		}
		luaL_addlstring(&b, w, wl);
		line += wl;
	}
	luaL_pushresult(&b);
	if (line)
		lua_rawseti(L, -2, ++n);
	else
		lua_pop(L, 1);
	return 1;
}

/* A string field of the table at idx, or "" where it is nil. */
static const char *field_text(lua_State *L, int idx, const char *key)
{
	lua_getfield(L, idx, key);
	const char *s = lua_isnil(L, -1) ? "" : luaL_checkstring(L, -1);
	lua_pop(L, 1); /* the table still holds the string */
	return s;
}

/* table_text(rule): a rule's table in a line: the class bounds, then each
 * band's lengths, its strategy elsewhere, and the classes that differ
 * from it, then memmove's copies where the ranges overlap, where named.
 * zen2 reads "above: d 1..31 | 0..63 forward | 64.. forward, above down". */
static int l_table_text(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	struct copy_table *t = lua_newuserdatauv(L, sizeof *t, 0); /* freed by Lua, even after an error */
	bind_table_from_lua(L, 1, t);
	const struct class_bounds *c = &t->classes;
	int live[N_DISTANCE_CLASSES] = {1, c->above_max > 0, c->near_max > 0, c->below_max > 0};
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	const char *sep = "";
	if (c->zero_mod < 4096)
		lua_pushfstring(L, "zero: d mod %d = 0", c->zero_mod), luaL_addvalue(&b), sep = " | ";
	if (c->above_max > 0)
		lua_pushfstring(L, "%sabove: d 1..%d", sep, (int)c->above_max), luaL_addvalue(&b), sep = " | ";
	if (c->near_max > 0)
		lua_pushfstring(L, "%snear: d %d..%d", sep, (int)c->above_max + 1, (int)c->near_max), luaL_addvalue(&b),
			sep = " | ";
	if (c->below_max > 0)
		lua_pushfstring(L, "%sbelow: d %d..4095", sep, 4096 - (int)c->below_max), luaL_addvalue(&b), sep = " | ";
	for (int i = 0; i < t->n_bands; i++, sep = " | ") {
		const struct band *x = &t->bands[i];
		int elsewhere = x->strategy[CLASS_ELSEWHERE];
		lua_pushfstring(L, "%s%d..", sep, (int)x->lo);
		luaL_addvalue(&b);
		if (x->hi != BAND_UNBOUNDED)
			lua_pushfstring(L, "%d", (int)x->hi), luaL_addvalue(&b);
		lua_pushfstring(L, " %s", strategy_catalogue[elsewhere].name);
		luaL_addvalue(&b);
		for (int k = 0; k < N_DISTANCE_CLASSES; k++)
			if (k != CLASS_ELSEWHERE && live[k] && x->strategy[k] != elsewhere)
				lua_pushfstring(L, ", %s %s", class_names[k], strategy_catalogue[x->strategy[k]].name),
					luaL_addvalue(&b);
	}
	static const char *const sides[][2] = {{"below", "up"}, {"above", "down"}};
	for (int w = 0; w < 2; w++) {
		char key[32];
		snprintf(key, sizeof key, "overlap_%s", sides[w][0]);
		const char *s = field_text(L, 1, key);
		strcat(key, "_max");
		lua_getfield(L, 1, key);
		lua_Integer max = lua_isnil(L, -1) ? 0 : luaL_checkinteger(L, -1);
		lua_pop(L, 1);
		if (!*s)
			continue;
		lua_pushfstring(L, "%soverlap %s: %s", sep, sides[w][1], s);
		luaL_addvalue(&b);
		if (max > 0)
			lua_pushfstring(L, " to %d", (int)max), luaL_addvalue(&b);
		sep = " | ";
	}
	luaL_pushresult(&b);
	return 1;
}

/* rule_status_text(rule): what a rule is, in words: "measured 2026-11-29
 * (KVMKVMKVM guest)", "inherited from zen2", or "baseline (no evidence)". */
static int l_rule_status_text(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	const char *status = field_text(L, 1, "status");
	if (strcmp(status, "measured") == 0) {
		const char *hypervisor = field_text(L, 1, "hypervisor");
		lua_pushfstring(L, "measured %s%s%s%s", field_text(L, 1, "measured_on"), *hypervisor ? " (" : "",
				hypervisor, *hypervisor ? " guest)" : "");
	} else if (strcmp(status, "inherited") == 0) {
		lua_pushfstring(L, "inherited from %s", field_text(L, 1, "source"));
	} else {
		lua_pushstring(L, "baseline (no evidence)");
	}
	return 1;
}

void bind_text(lua_State *L)
{
	static const luaL_Reg functions[] = {
		{"c_string", l_c_string},   {"c_comment", l_c_comment},
		{"md_cell", l_md_cell},     {"wrap", l_wrap},
		{"table_text", l_table_text}, {"rule_status_text", l_rule_status_text},
	};
	for (size_t i = 0; i < sizeof functions / sizeof *functions; i++) {
		lua_pushcfunction(L, functions[i].func);
		lua_setglobal(L, functions[i].name);
	}
}
