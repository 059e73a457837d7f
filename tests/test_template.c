/* Unit tests of the template engine (gen/render/template.c): output, holes, Lua
 * lines, and errors that name the template's own file and line. */
#include "template.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

static void expect_output(const char *what, const char *tpl, const char *want)
{
	lua_State *L = template_state();
	struct buf out = {0};
	char *error = NULL;
	int rc = template_render(L, "t.tpl", tpl, &out, &error);
	const char *got = out.data ? out.data : "";
	if (rc == 0 && strcmp(got, want) == 0) {
		passed++;
	} else {
		failed++;
		printf("FAIL %s: got %s'%s', want '%s'\n", what, rc ? "error " : "", rc ? error : got, want);
	}
	free(error);
	buf_free(&out);
	lua_close(L);
}

static void expect_error(const char *what, const char *tpl, const char *want_prefix, const char *want_part)
{
	lua_State *L = template_state();
	if (luaL_dostring(L, "ro = freeze({ x = 1, list = { 1, 2 } })") != LUA_OK) {
		printf("FAIL %s: could not set up the state\n", what);
		failed++;
		lua_close(L);
		return;
	}
	struct buf out = {0};
	char *error = NULL;
	int rc = template_render(L, "t.tpl", tpl, &out, &error);
	if (rc != 0 && strncmp(error, want_prefix, strlen(want_prefix)) == 0 && strstr(error, want_part)) {
		passed++;
	} else {
		failed++;
		printf("FAIL %s: got %s '%s', want an error starting '%s' containing '%s'\n", what,
		       rc ? "error" : "success", rc ? error : (out.data ? out.data : ""), want_prefix, want_part);
	}
	free(error);
	buf_free(&out);
	lua_close(L);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("usage: %s\nUnit tests of the template engine; prints N passed, N failed.\n", argv[0]);
		return strcmp(argv[1], "--help") == 0 ? 0 : 2;
	}
	expect_output("plain text", "mov rax, rdi\nret\n", "mov rax, rdi\nret\n");
	expect_output("no trailing newline", "a\nb", "a\nb");
	expect_output("expression hole", "x = ${1 + 2};\n", "x = 3;\n");
	expect_output("two holes", "${'a'}-${'b'}\n", "a-b\n");
	expect_output("braces inside a hole", "${ ({ v = 5 }).v }\n", "5\n");
	expect_output("brace in a string inside a hole", "${ '}' }\n", "}\n");
	expect_output("literal ${", "$${not a hole}\n", "${not a hole}\n");
	expect_output("lua lines emit nothing", "@ local n = 2\n${n}\n", "2\n");
	expect_output("indented lua line", "  @ local n = 4\n${n}\n", "4\n");
	expect_output("loop", "@ for i = 1, 3 do\nx${i}\n@ end\n", "x1\nx2\nx3\n");
	expect_output("conditional", "@ if false then\nno\n@ else\nyes\n@ end\n", "yes\n");
	expect_output("booleans", "${true}\n", "true\n");
	expect_output("quotes and backslashes", "db \"a\\b\"\n", "db \"a\\b\"\n");
	expect_output("frozen tables read", "@ local t = freeze({ a = { 1, 2, 3 } })\n${#t.a} ${t.a[2]}\n", "3 2\n");
	expect_output("frozen tables iterate",
		      "@ local t = freeze({ 5, 6 })\n@ for i, v in ipairs(t) do\n${i}=${v}\n@ end\n", "1=5\n2=6\n");
	expect_output("globals do not leak between templates", "@ leaked = 1\n", "");
	expect_output("a fresh render sees no leaked global", "${tostring(leaked)}\n", "nil\n");

	expect_error("nil hole names its line", "ok\n${missing}\n", "t.tpl:2:", "${missing} is nil");
	expect_error("line numbers hold after Lua lines", "@ local a = 1\n@ local b = 2\nx\n${missing}\n", "t.tpl:4:",
		     "${missing} is nil");
	expect_error("table hole", "${ro}\n", "t.tpl:1:", "is a table");
	expect_error("unclosed hole", "a\nb ${x\n", "t.tpl:2:", "never closed");
	expect_error("Lua syntax error names its line", "a\nb\n@ if then\n", "t.tpl:3:", "");
	expect_error("missing end names the file", "@ for i = 1, 2 do\nx\n", "t.tpl:", "'end' expected");
	expect_error("error() names its line", "a\n\n@ error('boom')\n", "t.tpl:3:", "boom");
	expect_error("error in a C function names the template line", "a\n${ string.rep() }\n", "t.tpl:2:",
		     "bad argument");
	expect_error("query results are read-only", "a\n@ ro.x = 2\n", "t.tpl:2:", "read-only");
	expect_error("nested results are read-only", "@ ro.list[1] = 9\n", "t.tpl:1:", "read-only");
	expect_error("no io library", "${io.open('x')}\n", "t.tpl:1:", "nil");
	expect_error("no os library", "@ os.exit(1)\n", "t.tpl:1:", "nil");
	expect_error("no load", "@ load('return 1')\n", "t.tpl:1:", "nil");

	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
