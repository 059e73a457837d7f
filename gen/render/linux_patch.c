/* linux/uarchcopy.patch, applied at a Linux tree's root with patch -p1:
 *   - templates/linux/linux-VERSION.diff, the hunks that change Linux's own
 *     files: arch/x86/lib/Makefile builds the new directory, memcpy and
 *     __memcpy are the generated copy's, and asm/uaccess_64.h calls the
 *     generated user copies (docs/linux.md says what each version's hunks
 *     change);
 *   - arch/x86/lib/uarchcopy/, new: its Kbuild Makefile and the boot code
 *     that installs the rule (templates/linux/, written by hand), and the
 *     kernel flavor's copy_linux.S, copy_rule.c and copy_rule.h of this run,
 *     under the names gen gives them, so that a tree takes a later run's
 *     files by copying them over.
 * Text before the first "diff" line is patch's to skip: the banner. */
#include "linux_patch.h"

#include "../output/manifest.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TREE_DIR "arch/x86/lib/uarchcopy/"

/* Since Linux 6.5 EXPORT_SYMBOL in a .S file comes from <linux/export.h>
 * (asm/export.h is gone); since 6.4 an unpatched tree picks rep movsb where
 * the CPU has FSRM and rep_movs_alternative or memcpy_orig where it does
 * not, which 6.12's baseline keeps. */
static const struct linux_tree trees[] = {
	{"6.1", "linux-6.1.diff", "<asm/export.h>", 0},
	{"6.12", "linux-6.12.diff", "<linux/export.h>", 1},
};

const struct linux_tree *linux_tree_find(const char *version)
{
	for (size_t i = 0; i < sizeof trees / sizeof *trees; i++)
		if (strcmp(trees[i].version, version) == 0)
			return &trees[i];
	return NULL;
}

char *linux_tree_versions(void)
{
	struct buf b = {0};
	for (size_t i = 0; i < sizeof trees / sizeof *trees; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", trees[i].version);
	return b.data;
}

/* The files of the new directory, in the order the patch adds them: from
 * templates/linux/, written by hand (generated 0), or from this run's
 * kernel flavor. */
static const struct {
	const char *name, *from;
	int generated;
} tree_files[] = {
	{"Makefile", "Makefile", 0},
	{"uarchcopy_init.c", "uarchcopy_init.c", 0},
	{"copy_linux.S", "kernel/x86_64/copy_linux.S", 1},
	{"copy_rule.c", "kernel/copy_rule.c", 1},
	{"copy_rule.h", "kernel/copy_rule.h", 1},
};

static const struct buf *generated(const struct fileset *fs, const char *path)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->files[i].path, path) == 0)
			return &fs->files[i].text;
	return NULL;
}

/* Appends text as the new file path: every line added. */
static int add_new_file(struct buf *patch, const char *path, const char *text, size_t len)
{
	size_t lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	int unterminated = len && text[len - 1] != '\n';
	if (!len) {
		err("linux/uarchcopy.patch: %s is empty", path);
		return EXIT_FAIL;
	}
	buf_printf(patch, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%zu @@\n",
		   path, path, path, lines + (size_t)unterminated);
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		buf_printf(patch, "+%.*s\n", (int)n, p);
		p += n + 1;
	}
	if (unterminated)
		buf_adds(patch, "\\ No newline at end of file\n");
	return 0;
}

/* templates_dir/linux/name's text, or NULL after the error. */
static char *read_template(const char *templates_dir, const char *name, size_t *len)
{
	char *path = xasprintf("%s/linux/%s", templates_dir, name);
	char *text = read_file(path, len);
	if (!text)
		err("%s: %s", path, strerror(errno));
	free(path);
	return text;
}

/* The banner, as every generated file has it, in patch's own comments. */
static int add_banner(lua_State *L, struct buf *patch, const char *templates_dir, const char *version)
{
	char *name = xasprintf("%s/linux/", templates_dir);
	char *banner = manifest_banner(L, "linux/uarchcopy.patch", name);
	free(name);
	if (!banner)
		return EXIT_FAIL;
	buf_printf(patch,
		   "%s\n#\n# The generated copies in a Linux source tree (%s): at its root,\n"
		   "#   patch -p1 < uarchcopy.patch\n# then configure and build as usual (docs/linux.md, \"Into a Linux tree\").\n\n",
		   banner, version);
	free(banner);
	return 0;
}

/* Appends templates/linux/NAME, or the file this run made; nonzero after the error. */
static int add_tree_file(struct buf *patch, const struct fileset *fs, const char *templates_dir, size_t i)
{
	char *path = xasprintf("%s%s", TREE_DIR, tree_files[i].name);
	int rc;
	if (tree_files[i].generated) {
		const struct buf *text = generated(fs, tree_files[i].from);
		if (!text) {
			err("linux/uarchcopy.patch: this run made no %s (a database without a kernel flavor?)",
			    tree_files[i].from);
			rc = EXIT_FAIL;
		} else {
			rc = add_new_file(patch, path, text->data ? text->data : "", text->len);
		}
	} else {
		size_t len;
		char *text = read_template(templates_dir, tree_files[i].from, &len);
		rc = text ? add_new_file(patch, path, text, len) : EXIT_FAIL;
		free(text);
	}
	free(path);
	return rc;
}

int linux_patch_add(lua_State *L, struct fileset *fs, const char *templates_dir, const struct linux_tree *tree)
{
	struct buf patch = {0};
	size_t len;
	char *diff = read_template(templates_dir, tree->diff, &len);
	int rc = diff ? add_banner(L, &patch, templates_dir, tree->version) : EXIT_FAIL;
	if (!rc)
		buf_add(&patch, diff, len);
	for (size_t i = 0; i < sizeof tree_files / sizeof *tree_files && !rc; i++)
		rc = add_tree_file(&patch, fs, templates_dir, i);
	free(diff);
	if (rc) {
		buf_free(&patch);
	} else {
		fs->files = xrealloc(fs->files, (fs->n + 1) * sizeof *fs->files);
		fs->files[fs->n++] = (struct out_file){
			.path = xstrdup("linux/uarchcopy.patch"),
			.template_path = xasprintf("%s/linux/", templates_dir),
			.text = patch};
	}
	return rc;
}
