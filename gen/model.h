/* The database loaded into memory, validated, with each entry's rule resolved. */
#ifndef UARCHGEN_MODEL_H
#define UARCHGEN_MODEL_H

#include <stddef.h>

/* The schema this uarchgen reads (PRAGMA user_version). */
#define UARCH_SCHEMA_VERSION 2

struct uarch {
	char *name, *vendor, *example, *cpuid_limit;
};

struct cpuid_range {
	char *uarch, *source;
	int family, model_lo, model_hi;
};

/* A flavor: a set of routines and the limits they are written to. */
struct flavor {
	char *name, *what;
	char *isa;        /* the widest registers the routines may touch: gpr, avx2, avx512 */
	int red_zone;     /* 1: the routines may use the 128 bytes below rsp */
	char **routines;  /* names from templates/lib/routines.lua, sorted */
	size_t n_routines;
};

/* One (entry, flavor) rule as stored: has_* is 0 where the column is NULL. */
struct rule {
	char *uarch, *flavor;
	int has_window, window, has_align, align_dst;
	char *evidence, *method, *measured_on, *cpu_signature, *hypervisor;
};

struct vendor_default {
	char *vendor, *flavor, *uarch;
};

/* A rule after vendor fallback: what a core of this entry gets. */
struct resolved_rule {
	int window, align_dst;
	int measured;              /* the entry's own window was measured */
	const char *window_from;   /* entry whose measurement gave window; NULL: none */
	const char *align_from;    /* entry whose measurement gave align_dst; NULL: none */
	const struct rule *stored; /* the entry's own row, or NULL */
};

struct model {
	struct uarch *uarchs;
	size_t n_uarchs;
	struct cpuid_range *ranges; /* sorted by family, model_lo */
	size_t n_ranges;
	struct flavor *flavors;
	size_t n_flavors;
	struct rule *rules;
	size_t n_rules;
	struct vendor_default *defaults;
	size_t n_defaults;
	char *dump;    /* canonical SQL dump */
	char hash[65]; /* sha256 of dump */
	char *db_dir;  /* directory that evidence paths are relative to */
};

/* Opens path read-only, loads and validates every table. On failure prints
 * what is wrong (table, row, column) and returns nonzero. */
int model_load(struct model *m, const char *path);

/* The entry's own stored rule for flavor, or NULL. */
const struct rule *model_rule(const struct model *m, const char *uarch, const char *flavor);

const struct uarch *model_uarch(const struct model *m, const char *name);
struct resolved_rule model_resolve(const struct model *m, const char *uarch, const char *flavor);
const struct vendor_default *model_default(const struct model *m, const char *vendor, const char *flavor);

/* What a CPU with this signature gets: the matching entry (or NULL) and its rule. */
const struct uarch *model_lookup(const struct model *m, const char *vendor, int family, int model,
				 const char *flavor, struct resolved_rule *out);

#endif
