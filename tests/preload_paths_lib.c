/* A shared library for tests/preload_paths.c, built by tests/preload.sh as
 * several libraries, each exporting PATHS_LIB (its name): built plain it
 * calls memcpy and memmove through its PLT only (R_X86_64_JUMP_SLOT);
 * with -DTAKE it takes their address too, in code (R_X86_64_GLOB_DAT,
 * through which its calls then go as well) and in static initializers
 * (R_X86_64_64). */
#include "preload_paths.h"

#include <string.h>

#ifdef TAKE
static copy_fn *const constant[2] = {memcpy, memmove};
static copy_fn *variable[2] = {memcpy, memmove};
#endif

static int work(void)
{
	char a[300], b[300];
	for (int i = 0; i < 300; i++)
		a[i] = (char)i;
	memcpy(b, a, sizeof a);
	memmove(b + 7, b, 200);
	return b[6] == 6 && b[7] == 0 && b[206] == (char)199 && b[299] == (char)299;
}

const struct paths_lib *PATHS_LIB(void)
{
	static struct paths_lib lib;
	lib.work = work;
#ifdef TAKE
	lib.taken[0] = memcpy;
	lib.taken[1] = memmove;
	lib.constant = constant;
	lib.variable = variable;
#endif
	return &lib;
}
