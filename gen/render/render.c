#include "render.h"

#include "../output/manifest.h"
#include "asm_syntax.h"
#include "bind.h"
#include "linux_patch.h"
#include "template.h"

#include <dirent.h>
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int render_with(lua_State *L, const char *template_path, struct buf *out)
{
	size_t len;
	char *text = read_file(template_path, &len);
	if (!text) {
		err("%s: cannot read the template", template_path);
		return EXIT_FAIL;
	}
	if (strlen(text) != len) {
		err("%s: the template holds a NUL byte", template_path);
		free(text);
		return EXIT_FAIL;
	}
	lua_pushstring(L, template_path);
	lua_setglobal(L, "template_name");
	char *error = NULL;
	int rc = template_render(L, template_path, text, out, &error);
	free(text);
	if (rc) {
		err("%s", error);
		free(error);
		return EXIT_FAIL;
	}
	return 0;
}

/* include(path [, args]): the text of a template part (name.tpi, never an
 * output of its own), rendered with the same globals, at the place of the
 * call. path is relative to the including template's directory. A part lets
 * one long output file be written as several short templates; args, a
 * table, is the part's global `args` while it renders, so that one part
 * can be rendered for several callers (a strategy's body for each routine
 * that runs it). */
static int l_include(lua_State *L)
{
	const char *rel = luaL_checkstring(L, 1);
	if (strstr(rel, "..") || rel[0] == '/' || !ends_with(rel, ".tpi"))
		return luaL_error(L, "include('%s'): a part is a relative path ending in .tpi", rel);
	if (!lua_isnoneornil(L, 2))
		luaL_checktype(L, 2, LUA_TTABLE);
	lua_getglobal(L, "template_name");
	const char *including = lua_tostring(L, -1);
	const char *slash = including ? strrchr(including, '/') : NULL;
	char *path = slash ? xasprintf("%.*s/%s", (int)(slash - including), including, rel) : xstrdup(rel);
	if (access(path, R_OK) != 0) {
		lua_pushfstring(L, "include('%s'): there is no part %s", rel, path);
		free(path);
		return lua_error(L);
	}
	lua_getglobal(L, "args"); /* the including template's args, restored after */
	lua_pushvalue(L, 2);
	lua_setglobal(L, "args");
	struct buf part = {0};
	int rc = render_with(L, path, &part);
	lua_setglobal(L, "args");
	lua_setglobal(L, "template_name"); /* the including template's name, still on the stack */
	free(path);
	if (rc) {
		buf_free(&part);
		return luaL_error(L, "include('%s') failed (see above)", rel);
	}
	size_t len = part.len;
	if (len && part.data[len - 1] == '\n')
		len--; /* the include's own line ends it */
	lua_pushlstring(L, part.data ? part.data : "", len);
	buf_free(&part);
	return 1;
}

int render_one(const struct model *m, const struct options *o, const struct flavor *flavor,
	       const char *template_path, struct buf *out)
{
	lua_State *L = bind_state(m, o);
	if (!L)
		return EXIT_FAIL;
	lua_register(L, "include", l_include);
	int rc = flavor ? bind_flavor(L, m, o, flavor) : 0;
	if (!rc)
		rc = render_with(L, template_path, out);
	lua_close(L);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects template paths below dir (relative to root), sorted for determinism. */
static int collect(const char *root, const char *rel, char ***paths, size_t *n)
{
	char *dir = rel[0] ? xasprintf("%s/%s", root, rel) : xstrdup(root);
	DIR *d = opendir(dir);
	if (!d) {
		err("%s: cannot read the template directory", dir);
		free(dir);
		return EXIT_FAIL;
	}
	struct dirent *e;
	int rc = 0;
	while (!rc && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *sub = rel[0] ? xasprintf("%s/%s", rel, e->d_name) : xstrdup(e->d_name);
		char *full = xasprintf("%s/%s", root, sub);
		struct stat sb;
		if (stat(full, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			rc = collect(root, sub, paths, n);
			free(sub);
		} else if (ends_with(sub, ".tpl")) {
			*paths = xrealloc(*paths, (*n + 1) * sizeof **paths);
			(*paths)[(*n)++] = sub;
		} else {
			free(sub);
		}
		free(full);
	}
	closedir(d);
	free(dir);
	if (!rc)
		qsort(*paths, *n, sizeof **paths, cmp_str);
	return rc;
}

static void add_file(struct fileset *fs, char *path, const char *template_path, struct buf text)
{
	fs->files = xrealloc(fs->files, (fs->n + 1) * sizeof *fs->files);
	fs->files[fs->n++] = (struct out_file){.path = path, .template_path = xstrdup(template_path), .text = text};
}

/* flavor.routines, names and kinds, as the back-ends take them. */
struct routine_list {
	struct asm_routine *r;
	size_t n;
};

/* Reads flavor.routines into the routine_list at index 1: called
 * protected, since a frozen table's missing field is a Lua error. The
 * shared templates, rendered before any flavor, see none. */
static int l_routines(lua_State *L)
{
	struct routine_list *list = lua_touserdata(L, 1);
	if (lua_getglobal(L, "flavor") == LUA_TNIL)
		return 0;
	lua_getfield(L, -1, "routines");
	lua_Integer n = luaL_len(L, -1);
	list->r = xmalloc((size_t)n * sizeof *list->r);
	for (lua_Integer i = 1; i <= n; i++) {
		lua_geti(L, -1, i);
		lua_getfield(L, -1, "name");
		lua_getfield(L, -2, "kind");
		const char *name = luaL_checkstring(L, -2), *kind = lua_tostring(L, -1);
		list->r[list->n++] = (struct asm_routine){xstrdup(name), kind ? xstrdup(kind) : NULL};
		lua_pop(L, 3);
	}
	return 0;
}

static void free_routines(struct routine_list *list)
{
	for (size_t i = 0; i < list->n; i++) {
		free((char *)list->r[i].name);
		free((char *)list->r[i].kind);
	}
	free(list->r);
}

/* A routine file (name.asm.tpl) is written once in neutral assembly; each
 * back-end (asm_syntax.h) renders it in its syntax, Linux's with --linux. */
static int add_routine_files(lua_State *L, struct fileset *fs, const char *out_path, const char *template_path,
			     const struct buf *neutral, const struct options *o)
{
	struct routine_list routines = {0};
	lua_pushcfunction(L, l_routines);
	lua_pushlightuserdata(L, &routines);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
		err("%s: flavor.routines: %s", template_path, lua_tostring(L, -1));
		lua_pop(L, 1);
		free_routines(&routines);
		return EXIT_FAIL;
	}
	char *stem = xasprintf("%.*s", (int)(strlen(out_path) - strlen(".asm")), out_path);
	int rc = 0;
	for (size_t i = 0; i < asm_n_outputs && !rc; i++) {
		const struct asm_output *out = &asm_outputs[i];
		if (out->linux_only && !o->linux_form)
			continue;
		struct buf b = {0};
		rc = asm_render(neutral->data ? neutral->data : "", neutral->len, out->syntax, template_path, o->prefix,
				routines.r, routines.n, &b);
		if (rc)
			buf_free(&b);
		else
			add_file(fs, xasprintf("%s%s", stem, out->suffix), template_path, b);
	}
	free(stem);
	free_routines(&routines);
	return rc;
}

/* Renders every template below root into dir_prefix (may be ""). */
static int render_tree(lua_State *L, const struct options *o, const char *root, const char *dir_prefix,
		       struct fileset *fs)
{
	char **paths = NULL;
	size_t n = 0;
	int rc = collect(root, "", &paths, &n);
	for (size_t i = 0; i < n && !rc; i++) {
		char *out_path = xasprintf("%s%.*s", dir_prefix, (int)(strlen(paths[i]) - 4), paths[i]);
		char *template_path = xasprintf("%s/%s", root, paths[i]);
		struct buf text = {0};
		rc = render_with(L, template_path, &text);
		if (!rc && !manifest_has_banner(&text)) {
			err("%s: the output does not start with ${banner(...)}", template_path);
			rc = EXIT_FAIL;
		}
		if (!rc && ends_with(out_path, ".asm")) {
			rc = add_routine_files(L, fs, out_path, template_path, &text, o);
			free(out_path);
			buf_free(&text);
		} else if (!rc) {
			add_file(fs, out_path, template_path, text);
		} else {
			free(out_path);
			buf_free(&text);
		}
		free(template_path);
	}
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	return rc;
}

int render_all(const struct model *m, const struct options *o, struct fileset *fs)
{
	memset(fs, 0, sizeof *fs);
	lua_State *L = bind_state(m, o);
	if (!L)
		return EXIT_FAIL;
	lua_register(L, "include", l_include);
	char *shared = xasprintf("%s/out", o->templates_dir);
	char *per_flavor = xasprintf("%s/flavor", o->templates_dir);
	int rc = render_tree(L, o, shared, "", fs);
	for (size_t i = 0; i < m->n_flavors && !rc; i++) {
		char *dir = xasprintf("%s/", m->flavors[i].name);
		rc = bind_flavor(L, m, o, &m->flavors[i]) || render_tree(L, o, per_flavor, dir, fs);
		free(dir);
	}
	if (!rc && o->linux_form)
		rc = linux_patch_add(L, fs, o->templates_dir, linux_tree_find(o->linux_version));
	if (!rc && fs->n == 0) {
		err("%s: no templates (*.tpl) found", o->templates_dir);
		rc = EXIT_FAIL;
	}
	if (!rc)
		rc = manifest_add(L, fs);
	lua_close(L);
	free(shared);
	free(per_flavor);
	return rc;
}
