/* Turns the model into files: renders templates/out/ once and
 * templates/flavor/ once per flavor (into <flavor>/), routine files once per
 * syntax back-end, and adds MANIFEST. */
#ifndef UARCHGEN_RENDER_H
#define UARCHGEN_RENDER_H

#include "../../common/util.h"
#include "../model/model.h"
#include "../output/fileset.h"
#include "options.h"

/* Renders every output file. Nonzero after printing the error. */
int render_all(const struct model *m, const struct options *o, struct fileset *fs);

/* Renders one template to text (query, debt, lookup); flavor may be NULL. */
int render_one(const struct model *m, const struct options *o, const struct flavor *flavor,
	       const char *template_path, struct buf *out);

#endif
