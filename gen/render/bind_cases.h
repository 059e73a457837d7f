/* What the generated rule tests check, computed in C for the templates
 * that print them (templates/flavor/tests/): the globals
 *   rule_edges(rule, short)  "{ n, d, code }" at every band and class edge
 *                            of a rule as Lua holds it
 *   every_strategy_table()   a table with each strategy the flavor offers
 *                            in a cell of a band it copies
 *   cpuid_signature(family, model)  CPUID leaf 1 EAX, stepping 1, or nil
 *   vendor_words(vendor)     the vendor string's three CPUID words, as C
 * bind_cases.c says how each is chosen. */
#ifndef UARCHGEN_BIND_CASES_H
#define UARCHGEN_BIND_CASES_H

#include <lua.h>

void bind_cases(lua_State *L);

#endif
