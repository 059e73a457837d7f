/* The template engine. A template is the emitted text with Lua holes:
 *
 *   a line whose first non-blank character is '@' is a Lua statement;
 *   ${expr} anywhere else is replaced by the value of the Lua expression;
 *   $${ is a literal "${".
 *
 * A template compiles to one Lua line per template line, so every Lua error,
 * at load or at run time, names the template's own file and line. */
#ifndef UARCHGEN_TEMPLATE_H
#define UARCHGEN_TEMPLATE_H

#include "../../common/util.h"

#include <lua.h>

/* A Lua state with only the base, string, table, math and utf8 libraries,
 * no file or process access, and the helpers templates use (freeze). */
lua_State *template_state(void);

/* Pushes a fresh environment table whose reads fall through to the globals:
 * what a template or a library module writes stays its own. */
void template_push_env(lua_State *L);

/* Turns template text into Lua source. NULL and *error ("name:line: what")
 * when a hole is not closed. */
char *template_compile(const char *name, const char *text, char **error);

/* Runs the template with the state's globals visible read-only, appending
 * its output to out. Nonzero and *error on failure. */
int template_render(lua_State *L, const char *name, const char *text, struct buf *out, char **error);

#endif
