/* Text the templates print, made safe or shaped in C: the globals
 *   c_string(s)         database text as a C string literal
 *   c_comment(s)        database text inside a C (or GAS) comment
 *   md_cell(s)          database text in a Markdown table cell
 *   wrap(text, width)   text in lines of at most width characters
 *   table_text(rule)    a rule's table in a line (uarchgen query)
 *   rule_status_text(rule)  what a rule is, in words
 * bind_text.c says how each escapes or shapes its text. */
#ifndef UARCHGEN_BIND_TEXT_H
#define UARCHGEN_BIND_TEXT_H

#include <lua.h>

void bind_text(lua_State *L);

#endif
