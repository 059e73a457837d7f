/* The plan in Lua (bind_plan.h). */
#include "bind_plan.h"

#include "../../common/util.h"
#include "../../plan/layout.h"
#include "../../plan/sets.h"
#include "../../plan/tree.h"
#include "bind_db.h"
#include "bind_lua.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void table_of(const struct rule *r, struct copy_table *t)
{
	t->classes = (struct class_bounds){(unsigned int)r->above_max, (unsigned int)r->near_max,
					   (unsigned int)r->below_max, r->zero_mod};
	t->align_dst = r->align_dst;
	t->n_bands = r->n_bands;
	memcpy(t->bands, r->bands, sizeof r->bands);
	memcpy(t->stand_in, r->stand_in, sizeof r->stand_in);
	memcpy(t->stand_in_max, r->stand_in_max, sizeof r->stand_in_max);
}

static void out_of_memory(void)
{
	err("out of memory");
	exit(EXIT_FAIL);
}

/* enum plan_op's names, in its order. */
static const char *const op_names[] = {"distance", "if_class",      "cmp_length", "if_at_most",   "if_above", "goto",
				       "label",    "cmp_code",      "if_code",    "if_code_above", "if_code_zero", "trap"};
_Static_assert(sizeof op_names / sizeof *op_names == PLAN_TRAP + 1, "a name for every plan_op");

/* A step with every field, nil where the op has none (a frozen table
 * tells a misspelt field from a nil one). */
static void push_step(lua_State *L, const struct plan_step *s)
{
	lua_newtable(L);
	set_str(L, "op", op_names[s->op]);
	set_str(L, "class", s->op == PLAN_IF_CLASS ? class_names[s->class] : NULL);
	set_bool(L, "flags", s->flags);
	set_int(L, "bound", s->bound);
	set_str(L, "to", s->to >= 0 ? strategy_catalogue[s->to].name : NULL);
	if (s->to >= 0 && s->piece >= 0)
		set_int(L, "piece", plan_pieces[s->piece].lo);
	else
		set_str(L, "piece", NULL);
	set_str(L, "label", s->label[0] ? s->label : NULL);
	set_bool(L, "falls", s->falls);
}

/* plan.pieces = { { strategy = name, lo = N, hi = N }, ... }: where a copy's
 * body may be entered past its compares (plan/pieces.h), in its order. */
static void push_pieces(lua_State *L)
{
	lua_createtable(L, N_PLAN_PIECES, 0);
	for (int i = 0; i < N_PLAN_PIECES; i++) {
		lua_newtable(L);
		set_str(L, "strategy", strategy_catalogue[plan_pieces[i].strategy].name);
		set_int(L, "lo", plan_pieces[i].lo);
		set_int(L, "hi", plan_pieces[i].hi);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "pieces");
}

/* Sets field `field` of the table on top to the tree's steps. */
static void set_steps(lua_State *L, const struct plan_tree *tree, const char *field)
{
	lua_newtable(L);
	for (int i = 0; i < tree->n_steps; i++) {
		push_step(L, &tree->steps[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, field);
}

/* Field overlap_safe = { up = { [name] = name }, down = { ... } } of the
 * table on top: what memmove runs in the place of each strategy of flavor
 * f (plan_overlap_safe), under t's stand-ins (NULL: the flavor's, for the
 * installed table, which the routines read at run time); a strategy with
 * none is absent. overlap_max = { up = n, down = n }: the longest copy a
 * way's stand-in takes where t bounds it, else 0; overlap_longer: the strategy
 * that takes the longer ones, which defers to the C library. */
static void set_overlap_safe(lua_State *L, const struct copy_table *t, const struct flavor *f)
{
	int codes[N_COPY_STRATEGIES], n = 0, defer = -1;
	for (int s = 0; s < N_COPY_STRATEGIES; s++)
		if (strategy_offered(s, f->isa_level, f->moves)) {
			codes[n++] = s;
			if (strategy_catalogue[s].defers)
				defer = s;
		}
	lua_newtable(L);
	for (int way = DIR_UP; way <= DIR_DOWN; way++) {
		lua_newtable(L);
		for (int i = 0; i < n; i++) {
			int safe = plan_overlap_safe(t, codes[i], way, defer);
			if (safe >= 0)
				set_str(L, strategy_catalogue[codes[i]].name, strategy_catalogue[safe].name);
		}
		lua_setfield(L, -2, direction_names[way]);
	}
	lua_setfield(L, -2, "overlap_safe");
	lua_newtable(L);
	for (int way = DIR_UP; way <= DIR_DOWN; way++)
		set_int(L, direction_names[way], t && t->stand_in[way] && defer >= 0 ? t->stand_in_max[way] : 0);
	lua_setfield(L, -2, "overlap_max");
	set_str(L, "overlap_longer", defer >= 0 ? strategy_catalogue[defer].name : NULL);
}

/* Sets field name of the table on top to what an entry that holds the
 * copies of held (plan_held's, 0: none) holds of tree's routine, which
 * rule_patch copies into it: { held = the copies after the tree, in
 * layout order, moved = per step, 1 where it is a rel32 jump out of the
 * entry that rule_patch moves (plan_moved), n_moved = how many, falls =
 * per step, 1 where the copy's moves lie right there (plan_falls_here) }. */
static void set_entry(lua_State *L, const struct plan_tree *tree, const int *order, int n, unsigned int held,
		      int falls_through, const char *name)
{
	lua_newtable(L);
	lua_newtable(L);
	for (int i = 0, k = 0; i < n; i++)
		if (held >> order[i] & 1u) {
			lua_pushstring(L, strategy_catalogue[order[i]].name);
			lua_rawseti(L, -2, ++k);
		}
	lua_setfield(L, -2, "held");
	int n_moved = 0;
	lua_createtable(L, tree->n_steps, 0);
	for (int i = 0; i < tree->n_steps; i++) {
		int moved = plan_moved(tree, i, held, falls_through);
		n_moved += moved;
		lua_pushboolean(L, moved);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "moved");
	set_int(L, "n_moved", n_moved);
	lua_createtable(L, tree->n_steps, 0);
	for (int i = 0; i < tree->n_steps; i++) {
		lua_pushboolean(L, plan_falls_here(tree, i, held));
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "falls");
	lua_setfield(L, -2, name);
}

/* Sets fields tree, reachable (the strategies the flavor has that the tree
 * reaches, in the order the routine lays them out, plan/layout.h),
 * falls_through (the tree's last jump, to the first of them, left out:
 * plan_falls_through) of the table on top; far: its jumps, to its copies
 * and its labels, are rel32 (dispatch.tpi says why); overlap_safe, under
 * t's stand-ins (set_overlap_safe). With far (a compiled set; else nil),
 * what a patched entry holds of its routine (set_entry): entry_plain where
 * the entry holds no copies, entry_holding where it holds the short ones
 * (plan_held), but for Linux's form (o->linux_form), whose bodies end in
 * RET, a jmp rel32 to __x86_return_thunk (gen/render/asm_linux.c) that
 * rule_patch does not move: copied as it was, it jumped into the entry's
 * int3 in a boot as EPYC-Milan (make check-linux-tree). */
static void set_tree(lua_State *L, const struct copy_table *t, const struct options *o, const struct flavor *f,
		     int far)
{
	struct plan_tree tree;
	if (plan_tree(t, &tree))
		out_of_memory();
	set_steps(L, &tree, "tree");
	/* --target's one tree (far 0) keeps its copies in code order: its
	 * jumps relax, and laid out so, NASM and GAS sized a jump of zen3's
	 * copy_to_user differently (small's exit to its end, 128 bytes on). */
	int order[N_COPY_STRATEGIES], n = 0;
	if (far)
		n = plan_layout(&tree, order);
	else
		for (int s = 0; s < N_COPY_STRATEGIES; s++)
			if (tree.used[s])
				order[n++] = s;
	lua_newtable(L);
	int first = -1;
	for (int i = 0, k = 0; i < n; i++)
		if (strategy_offered(order[i], f->isa_level, f->moves)) {
			if (first < 0)
				first = order[i];
			lua_pushstring(L, strategy_catalogue[order[i]].name);
			lua_rawseti(L, -2, ++k);
		}
	lua_setfield(L, -2, "reachable");
	int falls_through = plan_falls_through(&tree, first);
	set_bool(L, "falls_through", falls_through);
	if (far) {
		int offered[N_COPY_STRATEGIES], n_offered = 0;
		for (int i = 0; i < n; i++)
			if (strategy_offered(order[i], f->isa_level, f->moves))
				offered[n_offered++] = order[i];
		set_entry(L, &tree, offered, n_offered, 0, falls_through, "entry_plain");
		set_entry(L, &tree, offered, n_offered, o->linux_form ? 0 : plan_held(offered, n_offered), falls_through,
			  "entry_holding");
	} else {
		set_str(L, "entry_plain", NULL);
		set_str(L, "entry_holding", NULL);
	}
	set_bool(L, "far", far);
	set_overlap_safe(L, t, f);
	plan_tree_free(&tree);
}

static void push_sets(lua_State *L, const struct plan_sets *ps, const struct options *o, const struct flavor *f)
{
	lua_newtable(L);
	for (int i = 0; i < ps->n_sets; i++) {
		const struct plan_set *s = &ps->sets[i];
		lua_newtable(L);
		set_int(L, "id", s->id);
		set_str(L, "name", s->name);
		char suffix[sizeof s->name + 1];
		snprintf(suffix, sizeof suffix, "_%s", s->name);
		set_str(L, "suffix", suffix);
		set_tree(L, &s->table, o, f, 1);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "sets");
}

/* The name of the set each isa level of entry u's core runs. */
static void push_set_names(lua_State *L, const struct model *m, const struct flavor *f, const struct plan_sets *ps,
			   const char *target, const struct uarch *u)
{
	struct resolved_rule rr = model_resolve(m, u->name, f->name);
	const struct plan_row *row = NULL;
	for (int i = 0; !row && i < ps->n_rows; i++)
		if (strcmp(ps->rows[i].entry, u->name) == 0 ||
		    (rr.status == RULE_INHERITED && strcmp(ps->rows[i].entry, rr.source) == 0))
			row = &ps->rows[i];
	lua_newtable(L);
	for (int isa = 0; isa <= f->isa_level; isa++) {
		const char *name = target ? target : "baseline";
		for (int k = 0; row && !target && k < ps->n_sets; k++)
			if (ps->sets[k].id == row->by_isa[isa])
				name = ps->sets[k].name;
		lua_pushstring(L, name);
		lua_rawseti(L, -2, isa + 1);
	}
	lua_setfield(L, -2, u->name);
}

static void push_rows(lua_State *L, const struct model *m, const struct flavor *f, const struct plan_sets *ps)
{
	lua_newtable(L);
	for (int i = 0; i < ps->n_rows; i++) {
		lua_newtable(L);
		set_str(L, "entry", ps->rows[i].entry);
		struct resolved_rule rr = model_resolve(m, ps->rows[i].entry, f->name);
		bind_push_resolved(L, &rr);
		lua_setfield(L, -2, "rule");
		lua_newtable(L);
		for (int isa = 0; isa <= f->isa_level; isa++) {
			lua_pushinteger(L, ps->rows[i].by_isa[isa]);
			lua_rawseti(L, -2, isa);
		}
		lua_setfield(L, -2, "by_isa");
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "rows");
}

void bind_plan(lua_State *L, const struct model *m, const struct options *o, const struct flavor *f)
{
	/* --target compiles the named entry's table into the entries, in a
	 * flavor without vector isa levels: whether the CPU and the OS enable
	 * those is known only at run time. */
	const char *target = o->target && f->isa_level == 0 ? o->target : NULL;
	struct copy_table *tables = xmalloc((m->n_uarchs + 1) * sizeof *tables);
	struct plan_measured *measured = xmalloc((m->n_uarchs + 1) * sizeof *measured);
	struct plan_sets ps;
	int n = 0;
	for (size_t i = 0; !target && i < m->n_uarchs; i++) {
		struct resolved_rule rr = model_resolve(m, m->uarchs[i].name, f->name);
		if (rr.status != RULE_MEASURED)
			continue;
		table_of(rr.table, &tables[n]);
		measured[n] = (struct plan_measured){m->uarchs[i].name, &tables[n]};
		n++;
	}
	if (plan_sets(measured, n, f->isa_level, &ps))
		out_of_memory();
	lua_newtable(L);
	push_sets(L, &ps, o, f);
	push_rows(L, m, f, &ps);
	lua_newtable(L);
	for (size_t i = 0; i < m->n_uarchs; i++)
		push_set_names(L, m, f, &ps, target, &m->uarchs[i]);
	lua_setfield(L, -2, "set_names");
	/* The table dispatch's code tree, over every strategy of the flavor. */
	int codes[N_COPY_STRATEGIES], n_codes = 0;
	for (int s = 0; s < N_COPY_STRATEGIES; s++)
		if (strategy_offered(s, f->isa_level, f->moves))
			codes[n_codes++] = s;
	struct plan_tree code_tree;
	if (plan_code_tree(codes, n_codes, &code_tree))
		out_of_memory();
	set_steps(L, &code_tree, "code_tree");
	set_overlap_safe(L, NULL, f);
	push_pieces(L);
	int short_first[N_COPY_STRATEGIES], n_short = plan_short_first(codes, n_codes, short_first);
	lua_createtable(L, n_short, 0);
	for (int i = 0; i < n_short; i++) {
		lua_pushstring(L, strategy_catalogue[short_first[i]].name);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "short_first");
	plan_tree_free(&code_tree);
	if (target) {
		struct resolved_rule rr = model_resolve(m, target, f->name);
		table_of(rr.table, &tables[0]);
		lua_newtable(L);
		set_str(L, "name", target);
		set_tree(L, &tables[0], o, f, 0);
		lua_setfield(L, -2, "target");
	}
	set_global_frozen(L, "plan");
	plan_sets_free(&ps);
	free(measured);
	free(tables);
}

void bind_table_from_lua(lua_State *L, int idx, struct copy_table *t)
{
	lua_getfield(L, idx, "above_max");
	lua_getfield(L, idx, "near_max");
	lua_getfield(L, idx, "below_max");
	lua_getfield(L, idx, "zero_mod");
	lua_getfield(L, idx, "align_dst");
	t->classes = (struct class_bounds){(unsigned int)luaL_checkinteger(L, -5), (unsigned int)luaL_checkinteger(L, -4),
					   (unsigned int)luaL_checkinteger(L, -3), (int)luaL_checkinteger(L, -2)};
	t->align_dst = (int)luaL_checkinteger(L, -1);
	lua_pop(L, 5);
	lua_getfield(L, idx, "bands");
	t->n_bands = 0;
	for (lua_Integer i = 1; lua_geti(L, -1, i) == LUA_TTABLE; i++) {
		if (t->n_bands == PLAN_MAX_BANDS)
			luaL_error(L, "choice: more than %d bands", PLAN_MAX_BANDS);
		struct band *b = &t->bands[t->n_bands++];
		lua_getfield(L, -1, "lo");
		lua_getfield(L, -2, "hi");
		b->lo = (unsigned int)luaL_checkinteger(L, -2);
		b->hi = lua_tointeger(L, -1) < 0 ? BAND_UNBOUNDED : (unsigned int)lua_tointeger(L, -1);
		lua_pop(L, 2);
		for (int c = 0; c < N_DISTANCE_CLASSES; c++) {
			lua_getfield(L, -1, class_names[c]);
			const char *name = luaL_checkstring(L, -1);
			b->strategy[c] = strategy_named(name);
			if (b->strategy[c] < 0)
				luaL_error(L, "choice: no strategy %s in the catalogue", name);
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 2);
}

static int l_choice(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_Integer n = luaL_checkinteger(L, 2), d = luaL_checkinteger(L, 3);
	struct copy_table *t = lua_newuserdatauv(L, sizeof *t, 0); /* freed by Lua, even after an error */
	bind_table_from_lua(L, 1, t);
	int s = plan_choice(t, (unsigned int)n, (unsigned int)(d & 4095));
	if (!plan_holds_length(t, (unsigned int)n))
		return luaL_error(L, "choice: no band of the table holds length %d", (int)n);
	lua_pushinteger(L, s);
	lua_pushstring(L, strategy_catalogue[s].name);
	return 2;
}

void bind_choice(lua_State *L)
{
	lua_pushcfunction(L, l_choice);
	lua_setglobal(L, "choice");
}
