#include "fileset.h"

#include <stdlib.h>
#include <string.h>

void fileset_free(struct fileset *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->files[i].path);
		free(fs->files[i].template_path);
		buf_free(&fs->files[i].text);
	}
	free(fs->files);
	memset(fs, 0, sizeof *fs);
}
