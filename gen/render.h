/* Turns the model into files: hands the database to the templates as
 * read-only Lua tables, renders every template, and adds MANIFEST. */
#ifndef UARCHGEN_RENDER_H
#define UARCHGEN_RENDER_H

#include "model.h"
#include "util.h"

#define UARCHGEN_VERSION "1"

struct options {
	const char *db_path, *templates_dir, *out_dir;
	const char *prefix;   /* exported symbol prefix */
	const char *target;   /* entry to specialise for, or NULL */
	int memcpy_symbol;    /* also export the copy as a strong memcpy */
	int smap;             /* stac/clac around the user accesses */
};

struct out_file {
	char *path; /* relative to the output directory */
	char *template_path;
	struct buf text;
};

struct fileset {
	struct out_file *files;
	size_t n;
};

/* Renders every template under templates_dir/out. Nonzero after printing the error. */
int render_all(const struct model *m, const struct options *o, struct fileset *fs);

/* Renders one template to text (for query and debt). */
int render_one(const struct model *m, const struct options *o, const char *template_path, struct buf *out);

void fileset_free(struct fileset *fs);

#endif
