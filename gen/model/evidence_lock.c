#include "evidence_lock.h"

#include "../../common/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

/* As long as an import waits for another's transaction (its busy timeout). */
#define WAIT_MS 60000

int evidence_lock(const char *db_dir, const char *db_path, int exclusive)
{
	char *dir = xasprintf("%s/evidence", db_dir);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int missing = errno == ENOENT;
		if (!missing)
			err("%s: cannot open it to lock it: %s", dir, strerror(errno));
		free(dir);
		return missing ? -2 : -1;
	}
	int rc;
	if (exclusive) {
		while ((rc = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
			;
	} else {
		const struct timespec step = {0, 50 * 1000 * 1000};
		for (int waited = 0; (rc = flock(fd, LOCK_SH | LOCK_NB)) != 0 && errno == EWOULDBLOCK; waited += 50) {
			if (waited == 0)
				err("%s: an import is in progress (it is recording a run into %s/): waiting for it", db_path,
				    dir);
			if (waited >= WAIT_MS) {
				err("%s: the import has been recording for a minute: run again when it is done", db_path);
				errno = EWOULDBLOCK;
				close(fd);
				free(dir);
				return -1;
			}
			nanosleep(&step, NULL);
		}
	}
	if (rc != 0) {
		err("%s: cannot lock it: %s", dir, strerror(errno));
		close(fd);
		fd = -1;
	}
	free(dir);
	return fd;
}

void evidence_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}
