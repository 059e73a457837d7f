/* Loads uarch.db and checks every row against the rules a database must
 * keep (docs/generating.md#what-the-generator-refuses), independently of
 * the schema's CHECK constraints: a database written by an older schema,
 * or with checks switched off, must not slip bad rows through. */
#include "model.h"

#include "../../common/sha256.h"
#include "../../common/text.h"
#include "../../common/util.h"
#include "db_open.h"
#include "dump.h"
#include "evidence_lock.h"
#include "keys.h"
#include "rows.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void load_uarchs(struct loader *l, struct model *m)
{
	sqlite3_stmt *st = prepare(l, "SELECT name, vendor, example, cpuid_limit FROM uarch ORDER BY name");
	if (!st)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *row = row_key(st, 1);
		struct uarch u = {0};
		u.name = col_text(l, st, 0, "uarch", row, 0);
		u.vendor = col_text(l, st, 1, "uarch", row, 0);
		u.example = col_text(l, st, 2, "uarch", row, 0);
		u.cpuid_limit = col_text(l, st, 3, "uarch", row, 1);
		if (u.name && !name_ok(u.name))
			row_error(l, "uarch", row, "name", "must be 1-31 of [a-z0-9_], starting with a letter");
		if (u.vendor && !vendor_known(u.vendor)) {
			char *what = xasprintf("'%s' is not a CPUID vendor string a CPU reports (%s)", u.vendor, vendor_list);
			row_error(l, "uarch", row, "vendor", what);
			free(what);
		}
		if (u.example && !*u.example)
			row_error(l, "uarch", row, "example", "must name an example part");
		free(row);
		m->uarchs = xrealloc(m->uarchs, (m->n_uarchs + 1) * sizeof *m->uarchs);
		m->uarchs[m->n_uarchs++] = u;
	}
	sqlite3_finalize(st);
}

static void load_flavors(struct loader *l, struct model *m)
{
	sqlite3_stmt *st = prepare(l, "SELECT name, what, isa, red_zone FROM flavor ORDER BY name");
	if (!st)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *row = row_key(st, 1);
		struct flavor f = {0};
		int has_red_zone;
		f.name = col_text(l, st, 0, "flavor", row, 0);
		f.what = col_text(l, st, 1, "flavor", row, 0);
		f.isa = col_text(l, st, 2, "flavor", row, 0);
		f.red_zone = col_int(l, st, 3, "flavor", row, &has_red_zone);
		if (f.name && !name_ok(f.name))
			row_error(l, "flavor", row, "name", "must be 1-31 of [a-z0-9_], starting with a letter");
		if (f.what && !*f.what)
			row_error(l, "flavor", row, "what", "must say what the flavor is for");
		f.isa_level = -1;
		for (int k = 0; f.isa && k < N_ISA_LEVELS; k++)
			if (strcmp(f.isa, isa_names[k]) == 0)
				f.isa_level = k;
		if (f.isa && f.isa_level < 0)
			row_error(l, "flavor", row, "isa", "must be one of gpr, avx2, avx512");
		if (!has_red_zone || (f.red_zone != 0 && f.red_zone != 1))
			row_error(l, "flavor", row, "red_zone", "must be 0 or 1");
		free(row);
		m->flavors = xrealloc(m->flavors, (m->n_flavors + 1) * sizeof *m->flavors);
		m->flavors[m->n_flavors++] = f;
	}
	sqlite3_finalize(st);
}

/* A flavor's routines, by name; templates/lib/routines.lua says what each
 * one is, and the generator refuses a name it does not hold. */
static void load_flavor_routines(struct loader *l, struct model *m)
{
	sqlite3_stmt *st = prepare(l, "SELECT flavor, routine FROM flavor_routine ORDER BY flavor, routine");
	if (!st)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *row = row_key(st, 2);
		char *flavor = col_text(l, st, 0, "flavor_routine", row, 0);
		char *routine = col_text(l, st, 1, "flavor_routine", row, 0);
		struct flavor *f = NULL;
		for (size_t i = 0; flavor && i < m->n_flavors; i++)
			if (m->flavors[i].name && strcmp(m->flavors[i].name, flavor) == 0)
				f = &m->flavors[i];
		if (flavor && !f)
			row_error(l, "flavor_routine", row, "flavor", "unknown flavor: not a row of table flavor");
		if (routine && !name_ok(routine))
			row_error(l, "flavor_routine", row, "routine", "must be 1-31 of [a-z0-9_], starting with a letter");
		if (f && routine && name_ok(routine)) {
			f->moves |= strcmp(routine, "memmove") == 0;
			f->routines = xrealloc(f->routines, (f->n_routines + 1) * sizeof *f->routines);
			f->routines[f->n_routines++] = routine;
		} else {
			free(routine);
		}
		free(flavor);
		free(row);
	}
	sqlite3_finalize(st);
	for (size_t i = 0; i < m->n_flavors; i++) {
		if (m->flavors[i].name && m->flavors[i].n_routines == 0) {
			char *row = xasprintf("(name='%s')", m->flavors[i].name);
			row_error(l, "flavor", row, "name", "no flavor_routine row gives this flavor a routine");
			free(row);
		}
	}
}

static void load_ranges(struct loader *l, struct model *m)
{
	sqlite3_stmt *st = prepare(l, "SELECT uarch, family, model_lo, model_hi, source FROM cpuid_range "
				      "ORDER BY family, model_lo, uarch");
	if (!st)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *row = row_key(st, 3);
		struct cpuid_range r = {0};
		int has_f, has_lo, has_hi;
		r.uarch = col_text(l, st, 0, "cpuid_range", row, 0);
		r.family = col_int(l, st, 1, "cpuid_range", row, &has_f);
		r.model_lo = col_int(l, st, 2, "cpuid_range", row, &has_lo);
		r.model_hi = col_int(l, st, 3, "cpuid_range", row, &has_hi);
		r.source = col_text(l, st, 4, "cpuid_range", row, 0);
		if (r.uarch && !model_uarch(m, r.uarch))
			row_error(l, "cpuid_range", row, "uarch", "names no row of table uarch");
		/* Display family 0..0x10E: base 0..15 plus an 8-bit extended family. */
		if (!has_f || r.family < 0 || r.family > 270)
			row_error(l, "cpuid_range", row, "family", "must be a display family in 0..270");
		/* The first x86-64 parts report family 0xf (AMD K8, Intel's
		 * Netburst Pentium 4 and Xeon) or 6 (Intel from Core 2; VIA's
		 * Nano); AMD's later cores 0x10 on, Zhaoxin's 6 and 7, Intel's
		 * announced ones 0x12 and 0x13. Families 0..5 are the 8086 to
		 * the Pentium and K6, none of which runs 64-bit code: a range
		 * there selects no CPU these routines run on, so it is a typo.
		 * Every model 0..255 stays possible from family 6 up, where the
		 * extended model counts (derive/cpuid.c decodes as Linux does). */
		else if (r.family < 6)
			row_error(l, "cpuid_range", row, "family",
				  "no x86-64 CPU reports a family below 6 (the first 64-bit parts are family 0xf, "
				  "AMD K8 and Intel Netburst, and 6, Intel Core 2)");
		if (!has_lo || r.model_lo < 0 || r.model_lo > 255)
			row_error(l, "cpuid_range", row, "model_lo", "must be a model in 0..255");
		if (!has_hi || r.model_hi < r.model_lo || r.model_hi > 255)
			row_error(l, "cpuid_range", row, "model_hi", "must be a model in model_lo..255");
		if (r.source && !*r.source)
			row_error(l, "cpuid_range", row, "source", "must cite where the range comes from");
		free(row);
		m->ranges = xrealloc(m->ranges, (m->n_ranges + 1) * sizeof *m->ranges);
		m->ranges[m->n_ranges++] = r;
	}
	sqlite3_finalize(st);
}

/* Points each range at its entry; again after the entries move. */
static void link_ranges(struct model *m)
{
	for (size_t i = 0; i < m->n_ranges; i++)
		m->ranges[i].entry = m->ranges[i].uarch ? model_uarch(m, m->ranges[i].uarch) : NULL;
}

static void check_overlaps(struct loader *l, struct model *m)
{
	link_ranges(m);
	/* The ranges are sorted by family, then model_lo: a range can only
	 * overlap those after it up to the first of another family or that
	 * starts past its end. */
	for (size_t i = 0; i < m->n_ranges; i++) {
		const struct cpuid_range *a = &m->ranges[i];
		const struct uarch *ua = a->entry;
		for (size_t j = i + 1; j < m->n_ranges; j++) {
			const struct cpuid_range *b = &m->ranges[j];
			const struct uarch *ub = b->entry;
			if (b->family != a->family || b->model_lo > a->model_hi)
				break;
			/* A NULL vendor was reported when its row was read. */
			if (!ua || !ub || !ua->vendor || !ub->vendor || strcmp(ua->vendor, ub->vendor) != 0)
				continue;
			char *row = xasprintf("(family=%d, model_lo=%d, uarch='%s')", b->family,
					      b->model_lo, b->uarch);
			char *what = xasprintf("models 0x%02x-0x%02x overlap row (family=%d, model_lo=%d, "
					       "uarch='%s'), models 0x%02x-0x%02x, of the same vendor",
					       b->model_lo, b->model_hi, a->family, a->model_lo, a->uarch,
					       a->model_lo, a->model_hi);
			row_error(l, "cpuid_range", row, "model_lo", what);
			free(row);
			free(what);
		}
	}
	for (size_t i = 0; i < m->n_uarchs; i++) {
		int found = 0;
		for (size_t j = 0; j < m->n_ranges && !found; j++)
			found = m->ranges[j].uarch && m->uarchs[i].name &&
				strcmp(m->ranges[j].uarch, m->uarchs[i].name) == 0;
		if (!found && m->uarchs[i].name) {
			char *row = xasprintf("(name='%s')", m->uarchs[i].name);
			row_error(l, "uarch", row, "name", "no cpuid_range row selects this entry");
			free(row);
		}
	}
}

/* Entries sort by vendor, then by their first CPUID range: roughly by age. */
static int cmp_uarch(const void *pa, const void *pb)
{
	const struct uarch *a = pa, *b = pb;
	int c = strcmp(a->vendor, b->vendor);
	if (c)
		return c;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* open_db: a connection to use, left open (its transaction's rows are
 * what is checked); NULL to open path read-only. */
static int load(struct model *m, const char *path, int check_files, sqlite3 *open_db)
{
	struct loader l = {.path = path, .db = open_db};
	memset(m, 0, sizeof *m);
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash - path), path) : xstrdup(".");
	/* A load that checks evidence/ reads under the import's lock, so that it
	 * never finds a run's folder before the run's rows (evidence_lock.h). */
	int lock = check_files ? evidence_lock(dir, path, 0) : -2;
	if (lock == -1 || (!open_db && db_open_readonly(path, &l.db))) {
		evidence_unlock(lock);
		free(dir);
		return EXIT_FAIL;
	}
	if (check_files)
		m->db_dir = dir;
	else
		free(dir);
	/* One read transaction: every table, the evidence check and the dump
	 * see one state of the database. */
	if (!open_db)
		sqlite3_exec(l.db, "BEGIN", NULL, NULL, NULL);

	sqlite3_stmt *st = prepare(&l, "PRAGMA user_version");
	int version = -1;
	if (st && sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version != UARCH_SCHEMA_VERSION) {
		if (!l.errors)
			err("%s: schema version %d, but this uarchgen reads version %d", path, version,
			    UARCH_SCHEMA_VERSION);
		if (!open_db)
			sqlite3_close(l.db); /* which ends the read transaction */
		evidence_unlock(lock);
		return EXIT_FAIL;
	}

	check_keys(&l);
	load_uarchs(&l, m);
	load_flavors(&l, m);
	load_flavor_routines(&l, m);
	load_ranges(&l, m);
	check_overlaps(&l, m);
	load_rules(&l, m);
	if (!l.errors) {
		m->dump = dump_database(l.db, &l.errors);
		if (m->dump)
			sha256_hex(m->dump, strlen(m->dump), m->hash);
	}
	if (!open_db)
		sqlite3_close(l.db);
	evidence_unlock(lock);
	if (l.errors) {
		err("%s: %d problem%s; nothing was written", path, l.errors, l.errors == 1 ? "" : "s");
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < m->n_uarchs; i++)
		m->uarchs[i].rank = 1 << 30;
	for (size_t i = m->n_ranges; i-- > 0;) /* sorted: the first range of an entry is written last */
		((struct uarch *)m->ranges[i].entry)->rank = m->ranges[i].family * 256 + m->ranges[i].model_lo;
	qsort(m->uarchs, m->n_uarchs, sizeof *m->uarchs, cmp_uarch);
	/* Each range points at its entry, so that a lookup is one pass over
	 * the ranges, not one over the entries for every range. */
	link_ranges(m);
	return 0;
}

int model_load(struct model *m, const char *path)
{
	return load(m, path, 1, NULL);
}

int model_load_unfiled(struct model *m, const char *path)
{
	return load(m, path, 0, NULL);
}

int model_load_open(struct model *m, sqlite3 *db, const char *path)
{
	return load(m, path, 0, db);
}
