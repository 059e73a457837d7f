/* The database loaded into memory, validated, with each entry's rule resolved. */
#ifndef UARCHGEN_MODEL_H
#define UARCHGEN_MODEL_H

#include "../../common/rule_limits.h"

#include <stddef.h>

/* The schema this uarchgen reads (PRAGMA user_version). */
#define UARCH_SCHEMA_VERSION 9

struct uarch {
	char *name, *vendor, *example, *cpuid_limit;
	int rank; /* family * 256 + model_lo of its first CPUID range: roughly its age */
};

struct cpuid_range {
	char *uarch, *source;
	int family, model_lo, model_hi;
	const struct uarch *entry; /* the row uarch names, set once the model is loaded */
};

/* A flavor: a set of routines and the limits they are written to. */
struct flavor {
	char *name, *what;
	char *isa;        /* the widest registers the routines may touch: gpr, avx2, avx512 */
	int isa_level;    /* the same as an enum isa_level: the strategies it allows */
	int red_zone;     /* 1: the routines may use the 128 bytes below rsp */
	int moves;        /* 1: it has a memmove (the drop-in library's), over a C library's (strategy_offered) */
	char **routines;  /* names from templates/lib/routines.lua, sorted */
	size_t n_routines;
};

/* One (entry, flavor) measured rule, with its decision table. */
struct rule {
	char *uarch, *flavor;
	int above_max, below_max, align_dst;
	int near_max; /* class near: d in above_max+1..near_max; 0: none */
	int zero_mod; /* class zero: d mod zero_mod = 0; 4096: d = 0 alone */
	char *evidence, *method, *measured_on, *cpu_signature, *hypervisor;
	struct band bands[MAX_BANDS];
	int n_bands;
	/* Columns overlap_below and overlap_above, by way (DIR_UP, DIR_DOWN):
	 * memmove's copy where the ranges overlap, code + 1 (copy_table's
	 * stand_in); 0 where NULL. */
	int stand_in[2];
	unsigned int stand_in_max[2]; /* overlap_below_max, overlap_above_max; 0 where NULL */
};

/* An unmeasured (entry, flavor) that takes a measured entry's rule. */
struct inherit {
	char *uarch, *flavor, *from, *reason;
};

enum rule_status { RULE_BASELINE, RULE_INHERITED, RULE_MEASURED };

/* What a core of an entry gets. */
struct resolved_rule {
	enum rule_status status;
	const struct rule *table;  /* the table it runs: its own, the inherited one, or the baseline */
	const char *source;        /* the entry whose measurement gave the table; NULL for the baseline */
	const char *reason;        /* why it inherits; NULL unless inherited */
};

/* The baseline: one band, every class forward. */
extern const struct rule baseline_rule;

struct model {
	struct uarch *uarchs;
	size_t n_uarchs;
	struct cpuid_range *ranges; /* sorted by family, model_lo */
	size_t n_ranges;
	struct flavor *flavors;
	size_t n_flavors;
	struct rule *rules;
	size_t n_rules;
	struct inherit *inherits;
	size_t n_inherits;
	char *dump;    /* canonical SQL dump */
	char hash[65]; /* sha256 of dump */
	char *db_dir;  /* directory that evidence paths are relative to; NULL: evidence files unchecked */
};

/* Opens path read-only, loads and validates every table. On failure prints
 * what is wrong (table, row, column) and returns nonzero. */
int model_load(struct model *m, const char *path);
/* model_load without the checks of evidence files: for the database a
 * merge makes, whose evidence/ is the union of two branches' and is not on
 * disk yet, and for an import, which may be the one to mend evidence/ (a
 * folder a killed import left). Every row is checked as model_load checks
 * it. */
int model_load_unfiled(struct model *m, const char *path);
/* model_load_unfiled through an open connection, which it leaves open: an
 * import loads the rows of its transaction before it commits them, so that
 * it never commits a rule the generator would refuse. */
struct sqlite3;
int model_load_open(struct model *m, struct sqlite3 *db, const char *path);

/* The entry's own stored rule for flavor, or NULL. */
const struct rule *model_rule(const struct model *m, const char *uarch, const char *flavor);

const struct uarch *model_uarch(const struct model *m, const char *name);
struct resolved_rule model_resolve(const struct model *m, const char *uarch, const char *flavor);

struct loader;
/* Loads tables rule, rule_band and inherit (rule_load.c), after the
 * entries and flavors. */
void load_rules(struct loader *l, struct model *m);
/* Loads table run and checks it against evidence/ (run_load.c). */
void load_runs(struct loader *l, struct model *m);

/* What a CPU with this signature gets: the matching entry (or NULL) and its
 * rule; the baseline when no entry matches. */
const struct uarch *model_lookup(const struct model *m, const char *vendor, int family, int model,
				 const char *flavor, struct resolved_rule *out);

#endif
