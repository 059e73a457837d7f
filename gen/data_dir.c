#include "data_dir.h"

#include "../common/util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* <the program's directory>/../share/uarchcopy, or NULL where the program's
 * path cannot be read. */
static const char *installed_data(void)
{
	static char dir[PATH_MAX + 32];
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	snprintf(dir, sizeof dir, "%s/../share/uarchcopy", exe);
	return dir;
}

void data_dir_settle(const char **db_path, const char **templates_dir)
{
	int db_default = strcmp(*db_path, "uarch.db") == 0 && access("uarch.db", F_OK) != 0;
	int templates_default = strcmp(*templates_dir, "templates") == 0 && access("templates", F_OK) != 0;
	const char *data = db_default || templates_default ? installed_data() : NULL;
	if (!data)
		return;
	char *db = xasprintf("%s/uarch.db", data), *templates = xasprintf("%s/templates", data);
	if (db_default && access(db, F_OK) == 0)
		*db_path = db, db = NULL;
	if (templates_default && access(templates, F_OK) == 0)
		*templates_dir = templates, templates = NULL;
	free(db);
	free(templates);
}
