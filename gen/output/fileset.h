/* The files one run of the generator makes, held in memory: the renderer
 * fills the set, MANIFEST closes it, and output writes it to a directory or
 * compares it with one. */
#ifndef UARCHGEN_FILESET_H
#define UARCHGEN_FILESET_H

#include "../../common/util.h"

#include <stddef.h>

struct out_file {
	char *path; /* relative to the output directory */
	char *template_path;
	struct buf text;
};

struct fileset {
	struct out_file *files;
	size_t n;
};

void fileset_free(struct fileset *fs);

#endif
