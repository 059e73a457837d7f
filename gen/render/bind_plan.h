/* The plan (plan/) as Lua sees it: the global plan, what each routine set
 * of the flavor runs and its branch tree, and the function choice(). The
 * templates print it; they decide nothing of it. */
#ifndef UARCHGEN_BIND_PLAN_H
#define UARCHGEN_BIND_PLAN_H

#include "../../plan/table.h"
#include "../model/model.h"
#include "options.h"

#include <lua.h>

/* Sets the global plan for flavor f (after bind_flavor's flavor):
 *   sets    { { id, name, suffix, table, tree, reachable, falls_through,
 *           far, entry_plain, entry_holding, overlap_safe, overlap_max,
 *           overlap_longer }, ... }: the compiled sets (plan/sets.h), each
 *           overlap_safe under its table's stand-ins; none with --target
 *   rows    { { entry, rule, by_isa = { [0] = id, ... } }, ... }: each
 *           measured entry and the set of each isa level
 *   target  { name, tree, reachable, falls_through, far, overlap_safe, ...
 *           } with --target (entry_plain and entry_holding nil), else nil
 *   code_tree  the table dispatch's steps from a code in ecx to its copy
 *   short_first  { name, ... }: the strategies it tests first below its
 *           short lengths (plan_short_first)
 *   overlap_safe  { up = { [name] = name }, down = ... }: the strategy
 *           memmove runs in a strategy's place (plan_overlap_safe) under
 *           the installed table, the flavor's
 *   set_names { [entry] = { name at isa 0, 1, ... } }: the set each entry's
 *           core runs ("baseline" where none; the target's name with it)
 * A tree is a list of steps { op, class, flags, bound, to, label }
 * (plan/tree.h): op "distance", "if_class", "cmp_length", "if_at_most",
 * "if_above", "goto", "label", "cmp_code", "if_code", "if_code_above",
 * "if_code_zero" or "trap"; to a strategy's name; label a label's name.
 * Exits after printing why when out of memory. */
void bind_plan(lua_State *L, const struct model *m, const struct options *o, const struct flavor *f);

/* A rule as Lua holds it (bands of names, class bounds), at idx, back in
 * C, into t; a Lua error where a band names no strategy of the catalogue
 * or there are more than PLAN_MAX_BANDS. */
void bind_table_from_lua(lua_State *L, int idx, struct copy_table *t);

/* Sets the global choice(rule, n, d): the code and name of the strategy a
 * rule as Lua holds it (bands of names, class bounds) picks, by
 * plan_choice, for the generated tests' expected values. */
void bind_choice(lua_State *L);

#endif
