/* The cases the generated rule tests check (bind_cases.h). */
#include "bind_cases.h"

#include "../../common/rule_limits.h"
#include "../../common/strategies.h"
#include "../../plan/table.h"
#include "bind_lua.h"
#include "bind_plan.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lengths or distances, each once: room for edge_lengths' (13 fixed, 2
 * at the short lengths' end, 6 a band, 4 at the stand-ins' bounds), more
 * than edge_distances' 16. */
struct points {
	lua_Integer v[13 + 2 + 6 * MAX_BANDS + 4];
	int n;
};

/* Adds v where it lies in [lo, hi] and is not there yet. */
static void add(struct points *p, lua_Integer v, lua_Integer lo, lua_Integer hi)
{
	if (v < lo || v > hi || p->n == (int)(sizeof p->v / sizeof *p->v))
		return;
	for (int i = 0; i < p->n; i++)
		if (p->v[i] == v)
			return;
	p->v[p->n++] = v;
}

static int ascending(const void *a, const void *b)
{
	lua_Integer x = *(const lua_Integer *)a, y = *(const lua_Integer *)b;
	return (x > y) - (x < y);
}

/* An integer field of the table at idx; 0 where it is nil. */
static lua_Integer field_or_0(lua_State *L, int idx, const char *key)
{
	lua_getfield(L, idx, key);
	lua_Integer v = lua_isnil(L, -1) ? 0 : luaL_checkinteger(L, -1);
	lua_pop(L, 1);
	return v;
}

/* The lengths the edges take: the short lengths' bounds (8, 32, 64), where
 * the dispatch's per-length bytes end and its band list begins (short - 1
 * and short), and either side of each band edge and of each bound of
 * memmove's stand-ins, however long: the strategy check reads no byte, and
 * the copies stop at COPY_EDGE_MAX (rule_checks.c.tpi). */
static void edge_lengths(const struct copy_table *t, lua_Integer shortest, const lua_Integer *overlap_max,
			 struct points *ns)
{
	static const lua_Integer fixed[] = {0, 1, 7, 8, 31, 32, 33, 63, 64, 65, 300, 4096, 65536};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		add(ns, fixed[i], 0, LUA_MAXINTEGER);
	add(ns, shortest - 1, 0, LUA_MAXINTEGER);
	add(ns, shortest, 0, LUA_MAXINTEGER);
	for (int i = 0; i < t->n_bands; i++) {
		const struct band *b = &t->bands[i];
		for (lua_Integer k = -1; k <= 1; k++) {
			add(ns, (lua_Integer)b->lo + k, 0, LUA_MAXINTEGER);
			if (b->hi != BAND_UNBOUNDED)
				add(ns, (lua_Integer)b->hi + k, 0, LUA_MAXINTEGER);
		}
	}
	for (int w = 0; w < 2; w++)
		if (overlap_max[w] > 0) {
			add(ns, overlap_max[w], 0, LUA_MAXINTEGER);
			add(ns, overlap_max[w] + 1, 0, LUA_MAXINTEGER);
		}
}

/* The distances: either side of each class's bounds. */
static void edge_distances(const struct copy_table *t, struct points *ds)
{
	static const lua_Integer fixed[] = {0, 1, 2, 1023, 2048, 4095};
	const struct class_bounds *c = &t->classes;
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		add(ds, fixed[i], 0, 4095);
	add(ds, c->above_max, 0, 4095);
	add(ds, c->above_max + 1, 0, 4095);
	if (c->near_max > 0) {
		add(ds, c->near_max, 0, 4095);
		add(ds, c->near_max + 1, 0, 4095);
	}
	add(ds, 4096 - (lua_Integer)c->below_max - 1, 0, 4095);
	add(ds, 4096 - (lua_Integer)c->below_max, 0, 4095);
	if (c->zero_mod < 4096) {
		lua_Integer z = c->zero_mod;
		lua_Integer at[] = {z - 1, z, z + 1, 4096 - z, 4096 - z + 1};
		for (size_t i = 0; i < sizeof at / sizeof *at; i++)
			add(ds, at[i], 0, 4095);
	}
}

/* rule_edges(rule, short): "{ n, d, code }" for every band and class
 * edge of rule (as Lua holds it: bands of names, class bounds, and
 * memmove's stand-ins' bounds where it has them), with the strategy
 * plan_choice gives there; short is the installed table's first length
 * past its per-length bytes (table_layout.lua). */
static int l_rule_edges(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_Integer shortest = luaL_checkinteger(L, 2);
	struct copy_table *t = lua_newuserdatauv(L, sizeof *t, 0); /* freed by Lua, even after an error */
	bind_table_from_lua(L, 1, t);
	lua_Integer overlap_max[2] = {field_or_0(L, 1, "overlap_below_max"), field_or_0(L, 1, "overlap_above_max")};
	struct points ns = {0}, ds = {0};
	edge_lengths(t, shortest, overlap_max, &ns);
	edge_distances(t, &ds);
	qsort(ns.v, (size_t)ns.n, sizeof *ns.v, ascending);
	qsort(ds.v, (size_t)ds.n, sizeof *ds.v, ascending);
	lua_createtable(L, ns.n * ds.n, 0);
	for (int i = 0, k = 0; i < ns.n; i++)
		for (int j = 0; j < ds.n; j++) {
			if (!plan_holds_length(t, (unsigned int)ns.v[i]))
				return luaL_error(L, "rule_edges: no band of the table holds length %d", (int)ns.v[i]);
			lua_pushfstring(L, "{ %d, %d, %d }", (int)ns.v[i], (int)ds.v[j],
					plan_choice(t, (unsigned int)ns.v[i], (unsigned int)ds.v[j]));
			lua_rawseti(L, -2, ++k);
		}
	return 1;
}

/* Whether strategy s copies every length of [lo, hi] (hi -1: unbounded). */
static int fits(int s, int lo, int hi)
{
	const struct strategy *x = &strategy_catalogue[s];
	return lo >= x->min_n && (x->max_n < 0 || (hi >= 0 && hi <= x->max_n));
}

/* every_strategy_table(): a table, no entry's, with every strategy the
 * flavor offers (the global flavor's isa_level and moves) in at least one
 * cell of a band whose lengths it copies: each takes the first free cell
 * that fits it, then the free cells take the strategies in turn where they
 * fit, else forward. The bands cross the short lengths' end and the
 * strategies' bounds (8, 32, 64, 256). */
static int l_every_strategy_table(lua_State *L)
{
	static const int bounds[][2] = {{0, 7}, {8, 31}, {32, 63}, {64, 256}, {257, 1023}, {1024, -1}};
	enum { N_BANDS = sizeof bounds / sizeof *bounds };
	int cell[N_BANDS][N_DISTANCE_CLASSES], offered[N_COPY_STRATEGIES], n = 0;
	lua_getglobal(L, "flavor");
	int isa_level = (int)field_or_0(L, -1, "isa_level");
	lua_getfield(L, -1, "moves");
	int moves = lua_toboolean(L, -1);
	lua_pop(L, 2);
	for (int s = 0; s < N_COPY_STRATEGIES; s++)
		if (strategy_offered(s, isa_level, moves))
			offered[n++] = s;
	memset(cell, -1, sizeof cell);
	for (int i = 0; i < n; i++) {
		int placed = 0;
		for (int b = 0; b < N_BANDS && !placed; b++)
			for (int c = 0; c < N_DISTANCE_CLASSES && !placed; c++)
				if (cell[b][c] < 0 && fits(offered[i], bounds[b][0], bounds[b][1]))
					cell[b][c] = offered[i], placed = 1;
	}
	for (int b = 0, turn = -1; b < N_BANDS; b++)
		for (int c = 0; c < N_DISTANCE_CLASSES; c++) {
			for (int k = 0; k < n && cell[b][c] < 0; k++) {
				turn = (turn + 1) % n;
				if (fits(offered[turn], bounds[b][0], bounds[b][1]))
					cell[b][c] = offered[turn];
			}
			if (cell[b][c] < 0)
				cell[b][c] = STRATEGY_FORWARD;
		}
	lua_newtable(L);
	set_str(L, "status", "baseline");
	set_int(L, "above_max", 31);
	set_int(L, "near_max", 95);
	set_int(L, "below_max", 64);
	set_int(L, "zero_mod", 4096);
	set_int(L, "align_dst", 0);
	lua_createtable(L, N_BANDS, 0);
	for (int b = 0; b < N_BANDS; b++) {
		lua_newtable(L);
		set_int(L, "lo", bounds[b][0]);
		set_int(L, "hi", bounds[b][1]);
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			set_str(L, class_names[c], strategy_catalogue[cell[b][c]].name);
		lua_rawseti(L, -2, b + 1);
	}
	lua_setfield(L, -2, "bands");
	return 1;
}

/* cpuid_signature(family, model): CPUID leaf 1 EAX for a display family
 * and model, stepping 1; nil where no signature gives them. */
static int l_cpuid_signature(lua_State *L)
{
	lua_Integer family = luaL_checkinteger(L, 1), model = luaL_checkinteger(L, 2);
	lua_Integer base_family = family, ext_family = 0;
	if (family >= 0xf)
		base_family = 0xf, ext_family = family - 0xf;
	if (family < 6 && model > 15) {
		lua_pushnil(L);
		return 1;
	}
	lua_pushinteger(L, ext_family << 20 | (model >> 4) << 16 | base_family << 8 | (model & 0xf) << 4 | 1);
	return 1;
}

/* vendor_words(vendor): a 12-character CPUID vendor string as the three
 * words CPUID leaf 0 returns it in (EBX, EDX, ECX), as C: "0x68747541u, ...". */
static int l_vendor_words(lua_State *L)
{
	size_t len;
	const char *v = luaL_checklstring(L, 1, &len);
	if (len != 12)
		return luaL_error(L, "vendor_words: '%s' is not 12 characters", v);
	char out[48], *p = out;
	for (int w = 0; w < 3; w++) {
		unsigned long x = 0;
		for (int i = 3; i >= 0; i--)
			x = x << 8 | (unsigned char)v[4 * w + i];
		p += snprintf(p, (size_t)(out + sizeof out - p), "%s0x%08lxu", w ? ", " : "", x);
	}
	lua_pushstring(L, out);
	return 1;
}

void bind_cases(lua_State *L)
{
	lua_pushcfunction(L, l_rule_edges);
	lua_setglobal(L, "rule_edges");
	lua_pushcfunction(L, l_every_strategy_table);
	lua_setglobal(L, "every_strategy_table");
	lua_pushcfunction(L, l_cpuid_signature);
	lua_setglobal(L, "cpuid_signature");
	lua_pushcfunction(L, l_vendor_words);
	lua_setglobal(L, "vendor_words");
}
