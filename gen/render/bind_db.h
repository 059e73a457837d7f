/* The database as Lua sees it: the global db (entries, their ranges and
 * resolved rules, the strategy catalogue) and the rule a core gets. */
#ifndef UARCHGEN_BIND_DB_H
#define UARCHGEN_BIND_DB_H

#include "../model/model.h"

#include <lua.h>

/* Pushes the table that becomes the global db. */
void bind_push_db(lua_State *L, const struct model *m);

/* Pushes what a core gets: status, the table (bands and class bounds), and
 * the facts of the measurement behind it (nil on the baseline). */
void bind_push_resolved(lua_State *L, const struct resolved_rule *rr);

/* Pushes the strategies a flavor of isa_level, with or without a memmove
 * (moves), offers (strategy_offered), in code order, each as the global
 * db.strategies holds it. */
void bind_push_strategies(lua_State *L, int isa_level, int moves);

#endif
