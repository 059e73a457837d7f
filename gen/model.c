/* Loads uarch.db and checks every row against the rules the brief states,
 * independently of the schema's CHECK constraints: a database written by an
 * older schema, or with checks switched off, must not slip bad rows through. */
#include "model.h"

#include "dump.h"
#include "rows.h"
#include "rule_limits.h"
#include "sha256.h"
#include "util.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
		if (u.vendor && strlen(u.vendor) != 12)
			row_error(l, "uarch", row, "vendor", "a CPUID vendor string is 12 characters");
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
		if (f.isa && strcmp(f.isa, "gpr") && strcmp(f.isa, "avx2") && strcmp(f.isa, "avx512"))
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

static int has_flavor(const struct model *m, const char *name)
{
	for (size_t i = 0; i < m->n_flavors; i++)
		if (m->flavors[i].name && strcmp(m->flavors[i].name, name) == 0)
			return 1;
	return 0;
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

static void check_overlaps(struct loader *l, struct model *m)
{
	for (size_t i = 0; i < m->n_ranges; i++) {
		const struct cpuid_range *a = &m->ranges[i];
		const struct uarch *ua = a->uarch ? model_uarch(m, a->uarch) : NULL;
		for (size_t j = i + 1; j < m->n_ranges; j++) {
			const struct cpuid_range *b = &m->ranges[j];
			const struct uarch *ub = b->uarch ? model_uarch(m, b->uarch) : NULL;
			if (!ua || !ub || strcmp(ua->vendor, ub->vendor) != 0 || a->family != b->family)
				continue;
			if (b->model_lo > a->model_hi || a->model_lo > b->model_hi)
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

static int is_url(const char *s)
{
	return strncmp(s, "https://", 8) == 0 || strncmp(s, "http://", 7) == 0;
}

static void check_evidence(struct loader *l, const struct model *m, const char *row, const char *ev)
{
	if (is_url(ev))
		return;
	if (strncmp(ev, "evidence/", 9) != 0 || strstr(ev, "..")) {
		row_error(l, "rule", row, "evidence", "must be a URL or a path under evidence/");
		return;
	}
	char *path = xasprintf("%s/%s", m->db_dir, ev);
	struct stat sb;
	if (stat(path, &sb) != 0) {
		char *what = xasprintf("'%s' does not exist next to the database", ev);
		row_error(l, "rule", row, "evidence", what);
		free(what);
	}
	free(path);
}

static void load_rules(struct loader *l, struct model *m)
{
	sqlite3_stmt *st = prepare(l, "SELECT uarch, flavor, window, align_dst, evidence, method, "
				      "measured_on, cpu_signature, hypervisor FROM rule ORDER BY uarch, flavor");
	if (!st)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *row = row_key(st, 2);
		struct rule r = {0};
		r.uarch = col_text(l, st, 0, "rule", row, 0);
		r.flavor = col_text(l, st, 1, "rule", row, 0);
		r.window = col_int(l, st, 2, "rule", row, &r.has_window);
		r.align_dst = col_int(l, st, 3, "rule", row, &r.has_align);
		r.evidence = col_text(l, st, 4, "rule", row, 1);
		r.method = col_text(l, st, 5, "rule", row, 1);
		r.measured_on = col_text(l, st, 6, "rule", row, 1);
		r.cpu_signature = col_text(l, st, 7, "rule", row, 1);
		r.hypervisor = col_text(l, st, 8, "rule", row, 1);
		if (r.uarch && !model_uarch(m, r.uarch))
			row_error(l, "rule", row, "uarch", "names no row of table uarch");
		if (r.flavor && !has_flavor(m, r.flavor))
			row_error(l, "rule", row, "flavor", "unknown flavor: not a row of table flavor");
		if (r.has_window && (r.window < 0 || r.window > 4096)) {
			char *what = xasprintf("%d is outside 0..4096", r.window);
			row_error(l, "rule", row, "window", what);
			free(what);
		}
		static const int aligns[] = {ALIGN_DST_VALUES};
		int align_ok = !r.has_align;
		for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; i++)
			align_ok |= r.align_dst == aligns[i];
		if (!align_ok) {
			char *what = xasprintf("%d is not one of " ALIGN_DST_TEXT, r.align_dst);
			row_error(l, "rule", row, "align_dst", what);
			free(what);
		}
		if (r.has_window || r.has_align) {
			if (!r.evidence || !*r.evidence)
				row_error(l, "rule", row, "evidence", "a measured rule needs evidence");
			else
				check_evidence(l, m, row, r.evidence);
			if (!r.method || !*r.method)
				row_error(l, "rule", row, "method", "a measured rule says how it was measured");
			if (!r.measured_on || !*r.measured_on)
				row_error(l, "rule", row, "measured_on", "a measured rule says when it was measured");
		}
		free(row);
		m->rules = xrealloc(m->rules, (m->n_rules + 1) * sizeof *m->rules);
		m->rules[m->n_rules++] = r;
	}
	sqlite3_finalize(st);
}

static void load_defaults(struct loader *l, struct model *m)
{
	sqlite3_stmt *st = prepare(l, "SELECT vendor, flavor, uarch FROM vendor_default ORDER BY vendor, flavor");
	if (!st)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *row = row_key(st, 2);
		struct vendor_default d = {0};
		d.vendor = col_text(l, st, 0, "vendor_default", row, 0);
		d.flavor = col_text(l, st, 1, "vendor_default", row, 0);
		d.uarch = col_text(l, st, 2, "vendor_default", row, 0);
		const struct uarch *u = d.uarch ? model_uarch(m, d.uarch) : NULL;
		if (d.flavor && !has_flavor(m, d.flavor))
			row_error(l, "vendor_default", row, "flavor", "unknown flavor: not a row of table flavor");
		if (d.uarch && !u)
			row_error(l, "vendor_default", row, "uarch", "names no row of table uarch");
		else if (u && d.vendor && strcmp(u->vendor, d.vendor) != 0)
			row_error(l, "vendor_default", row, "uarch", "names an entry of another vendor");
		else if (u && d.flavor) {
			const struct rule *r = model_rule(m, d.uarch, d.flavor);
			if (!r || !r->has_window)
				row_error(l, "vendor_default", row, "uarch",
					  "names an entry whose rule is unmeasured: a default must be measured");
		}
		free(row);
		m->defaults = xrealloc(m->defaults, (m->n_defaults + 1) * sizeof *m->defaults);
		m->defaults[m->n_defaults++] = d;
	}
	sqlite3_finalize(st);
}

static int vendor_rank(const struct model *m, const struct uarch *u)
{
	/* Entries sort by vendor, then by their first CPUID range: roughly by age. */
	for (size_t i = 0; i < m->n_ranges; i++)
		if (m->ranges[i].uarch && strcmp(m->ranges[i].uarch, u->name) == 0)
			return m->ranges[i].family * 256 + m->ranges[i].model_lo;
	return 1 << 30;
}

static const struct model *sort_model;

static int cmp_uarch(const void *pa, const void *pb)
{
	const struct uarch *a = pa, *b = pb;
	int c = strcmp(a->vendor, b->vendor);
	if (c)
		return c;
	int ra = vendor_rank(sort_model, a), rb = vendor_rank(sort_model, b);
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return strcmp(a->name, b->name);
}

int model_load(struct model *m, const char *path)
{
	struct loader l = {.path = path};
	memset(m, 0, sizeof *m);
	struct stat sb;
	if (stat(path, &sb) != 0) {
		err("%s: cannot open the database: no such file", path);
		return EXIT_FAIL;
	}
	if (sqlite3_open_v2(path, &l.db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		err("%s: cannot open the database: %s", path, sqlite3_errmsg(l.db));
		sqlite3_close(l.db);
		return EXIT_FAIL;
	}
	const char *slash = strrchr(path, '/');
	m->db_dir = slash ? xasprintf("%.*s", (int)(slash - path), path) : xstrdup(".");

	sqlite3_stmt *st = prepare(&l, "PRAGMA user_version");
	int version = -1;
	if (st && sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version != UARCH_SCHEMA_VERSION) {
		if (!l.errors)
			err("%s: schema version %d, but this uarchgen reads version %d", path, version,
			    UARCH_SCHEMA_VERSION);
		sqlite3_close(l.db);
		return EXIT_FAIL;
	}

	load_uarchs(&l, m);
	load_flavors(&l, m);
	load_flavor_routines(&l, m);
	load_ranges(&l, m);
	check_overlaps(&l, m);
	load_rules(&l, m);
	load_defaults(&l, m);
	if (!l.errors) {
		m->dump = dump_database(l.db, &l.errors);
		if (m->dump)
			sha256_hex(m->dump, strlen(m->dump), m->hash);
	}
	sqlite3_close(l.db);
	if (l.errors) {
		err("%s: %d problem%s; nothing was written", path, l.errors, l.errors == 1 ? "" : "s");
		return EXIT_FAIL;
	}
	sort_model = m;
	qsort(m->uarchs, m->n_uarchs, sizeof *m->uarchs, cmp_uarch);
	return 0;
}
