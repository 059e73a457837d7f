/* What the command line sets for a run of the generator. */
#ifndef UARCHGEN_OPTIONS_H
#define UARCHGEN_OPTIONS_H

#define UARCHGEN_VERSION "3"

struct options {
	const char *db_path, *templates_dir, *out_dir;
	const char *prefix;           /* exported symbol prefix */
	const char *target;           /* entry to specialise for, or NULL */
	int memcpy_symbol;            /* also export the copy as a strong memcpy */
	int smap;                     /* stac/clac around the user accesses */
	int endbr;                    /* endbr64 at every entry, and the CET property note */
	const char *user_copy_result; /* "status" (0 or 1) or "remaining" (bytes not copied) */
	int linux_form;               /* also write the routines for Linux's arch/x86/lib */
	const char *linux_version;    /* the Linux tree linux/uarchcopy.patch is for (linux_patch.h) */
};

#endif
