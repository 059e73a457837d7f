/* Loads the rules: each measured rule with its decision table (tables rule
 * and rule_band) and the inheritances (table inherit). Every check the
 * schema states is made again here, and those it cannot state: the bands of
 * a rule run from 0, touch, end unbounded, and name strategies valid for
 * their lengths. */
#include "model.h"

#include "../../common/util.h"
#include "rows.h"
#include "rule_overlap.h"

#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>


const struct rule baseline_rule = {
	.zero_mod = 4096,
	.n_bands = 1,
	.bands = {{0, BAND_UNBOUNDED, {BASELINE_STRATEGY, BASELINE_STRATEGY, BASELINE_STRATEGY, BASELINE_STRATEGY, BASELINE_STRATEGY}}},
};

static int has_flavor(const struct model *m, const char *name)
{
	for (size_t i = 0; i < m->n_flavors; i++)
		if (m->flavors[i].name && strcmp(m->flavors[i].name, name) == 0)
			return 1;
	return 0;
}

/* https://host/path: a scheme, a host of letters, digits, dots and
 * hyphens, and a path of URL characters. Nothing else is a link. */
static int is_url(const char *s)
{
	const char *p = strncmp(s, "https://", 8) == 0 ? s + 8 : strncmp(s, "http://", 7) == 0 ? s + 7 : NULL;
	if (!p)
		return 0;
	const char *host = p;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' || *p == '-')
		p++;
	if (p == host || !strchr(host, '.') || strchr(host, '.') > p || (*p && *p != '/'))
		return 0;
	for (; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=%", *p))
			return 0;
	return 1;
}

/* A URL, or a regular file under evidence/ next to the database, reached
 * without leaving evidence/ through a symlink: what a rule links must be
 * in the repository, since the rule is committed with it. */
static void check_evidence(struct loader *l, const struct model *m, const char *row, const char *ev)
{
	if (strncmp(ev, "http", 4) == 0) {
		if (!is_url(ev))
			row_error(l, "rule", row, "evidence", "is not a well-formed URL (https://host/path)");
		return;
	}
	if (strncmp(ev, "evidence/", 9) != 0 || strstr(ev, "..") || strstr(ev, "//")) {
		row_error(l, "rule", row, "evidence", "must be a URL or a path under evidence/");
		return;
	}
	if (!m->db_dir)
		return; /* a merge's database: its evidence is two branches' */
	char *path = xasprintf("%s/%s", m->db_dir, ev), *root = xasprintf("%s/evidence", m->db_dir);
	char *real = realpath(path, NULL), *real_root = realpath(root, NULL);
	struct stat sb;
	if (lstat(path, &sb) != 0) {
		char *what = xasprintf("'%s' does not exist next to the database", ev);
		row_error(l, "rule", row, "evidence", what);
		free(what);
	} else if (!S_ISREG(sb.st_mode)) {
		row_error(l, "rule", row, "evidence", "must be a regular file (a run's summary.md), not a folder or a link");
	} else if (!real || !real_root || strncmp(real, real_root, strlen(real_root)) != 0 ||
		   real[strlen(real_root)] != '/') {
		row_error(l, "rule", row, "evidence", "leaves evidence/ through a symbolic link");
	}
	free(real);
	free(real_root);
	free(path);
	free(root);
}

/* YYYY-MM-DD, or "by YYYY-MM-DD", of a day that exists. */
static int real_date(const char *s)
{
	return day_exists(strncmp(s, "by ", 3) == 0 ? s + 3 : s);
}

static void check_bound(struct loader *l, const char *row, const char *column, int has, int v)
{
	if (!has || v < 0 || v > CLASS_BOUND_MAX) {
		char *what = xasprintf("must be a distance in 0..%d", CLASS_BOUND_MAX);
		row_error(l, "rule", row, column, what);
		free(what);
	}
}

static void load_rule_rows(struct loader *l, struct model *m)
{
	sqlite3_stmt *st = prepare(l, "SELECT uarch, flavor, above_max, below_max, align_dst, evidence, method, "
				      "measured_on, cpu_signature, hypervisor, zero_mod, near_max, overlap_below, overlap_above, "
				      "overlap_below_max, overlap_above_max FROM rule ORDER BY uarch, flavor");
	if (!st)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *row = row_key(st, 2);
		struct rule r = {0};
		int has_above, has_below, has_align, has_near;
		r.uarch = col_text(l, st, 0, "rule", row, 0);
		r.flavor = col_text(l, st, 1, "rule", row, 0);
		r.above_max = col_int(l, st, 2, "rule", row, &has_above);
		r.below_max = col_int(l, st, 3, "rule", row, &has_below);
		r.align_dst = col_int(l, st, 4, "rule", row, &has_align);
		r.evidence = col_text(l, st, 5, "rule", row, 0);
		r.method = col_text(l, st, 6, "rule", row, 0);
		r.measured_on = col_text(l, st, 7, "rule", row, 0);
		r.cpu_signature = col_text(l, st, 8, "rule", row, 1);
		r.hypervisor = col_text(l, st, 9, "rule", row, 1);
		r.near_max = col_int(l, st, 11, "rule", row, &has_near);
		for (int way = DIR_UP; way <= DIR_DOWN; way++) {
			r.stand_in[way] = overlap_column(l, st, 12 + way, row);
			r.stand_in_max[way] = overlap_max_column(l, st, 14 + way, row, r.stand_in[way]);
		}
		int has_zero_mod, zero_ok = 0;
		r.zero_mod = col_int(l, st, 10, "rule", row, &has_zero_mod);
		static const int zero_mods[] = {ZERO_MOD_VALUES};
		for (size_t i = 0; has_zero_mod && i < sizeof zero_mods / sizeof zero_mods[0]; i++)
			zero_ok |= r.zero_mod == zero_mods[i];
		if (!zero_ok)
			row_error(l, "rule", row, "zero_mod", "must be one of " ZERO_MOD_TEXT);
		if (r.uarch && !model_uarch(m, r.uarch))
			row_error(l, "rule", row, "uarch", "names no row of table uarch");
		if (r.flavor && !has_flavor(m, r.flavor))
			row_error(l, "rule", row, "flavor", "unknown flavor: not a row of table flavor");
		check_bound(l, row, "above_max", has_above, r.above_max);
		check_bound(l, row, "below_max", has_below, r.below_max);
		check_bound(l, row, "near_max", has_near, r.near_max);
		if (has_near && has_above && r.near_max && r.near_max <= r.above_max)
			row_error(l, "rule", row, "near_max", "must be 0 (no near class) or more than above_max");
		static const int aligns[] = {ALIGN_DST_VALUES};
		int align_ok = 0;
		for (size_t i = 0; has_align && i < sizeof aligns / sizeof aligns[0]; i++)
			align_ok |= r.align_dst == aligns[i];
		if (!align_ok) {
			char *what = xasprintf("must be one of " ALIGN_DST_TEXT);
			row_error(l, "rule", row, "align_dst", what);
			free(what);
		}
		if (r.evidence && !*r.evidence)
			row_error(l, "rule", row, "evidence", "a measured rule needs evidence");
		else if (r.evidence)
			check_evidence(l, m, row, r.evidence);
		if (r.method && !*r.method)
			row_error(l, "rule", row, "method", "a measured rule says how it was measured");
		if (r.measured_on && !real_date(r.measured_on))
			row_error(l, "rule", row, "measured_on", "must be a day that exists, YYYY-MM-DD or by YYYY-MM-DD");
		free(row);
		m->rules = xrealloc(m->rules, (m->n_rules + 1) * sizeof *m->rules);
		m->rules[m->n_rules++] = r;
	}
	sqlite3_finalize(st);
}

/* One band row into its rule; the band's own columns are checked here, its
 * place among the rule's bands in check_bands. */
static void add_band(struct loader *l, struct model *m, sqlite3_stmt *st, const char *row)
{
	char *uarch = col_text(l, st, 0, "rule_band", row, 0);
	char *flavor = col_text(l, st, 1, "rule_band", row, 0);
	int has_lo, has_hi;
	struct band b = {0};
	/* Lengths up to INT_MAX: the band bounds are unsigned int, and
	 * BAND_UNBOUNDED (no bound) is NULL here. */
	int lo = col_int_in(l, st, 2, "rule_band", row, &has_lo, -1000000, INT_MAX);
	int hi = col_int_in(l, st, 3, "rule_band", row, &has_hi, -1000000, INT_MAX);
	int null_hi = sqlite3_column_type(st, 3) == SQLITE_NULL;
	struct rule *r = NULL;
	for (size_t i = 0; uarch && flavor && i < m->n_rules; i++)
		if (m->rules[i].uarch && m->rules[i].flavor && strcmp(m->rules[i].uarch, uarch) == 0 &&
		    strcmp(m->rules[i].flavor, flavor) == 0)
			r = &m->rules[i];
	if (!r)
		row_error(l, "rule_band", row, "uarch", "no rule row of this entry and flavor holds the band");
	if (!has_lo || lo < 0)
		row_error(l, "rule_band", row, "length_lo", "must be a length, 0 or more");
	if (!null_hi && (!has_hi || hi < lo))
		row_error(l, "rule_band", row, "length_hi", "must be NULL (no bound) or a length of length_lo or more");
	b.lo = (unsigned int)lo;
	b.hi = null_hi ? BAND_UNBOUNDED : (unsigned int)hi;
	for (int c = 0; c < N_DISTANCE_CLASSES; c++) {
		char *name = col_text(l, st, 4 + c, "rule_band", row, 0);
		b.strategy[c] = name ? strategy_named(name) : 0;
		if (name && b.strategy[c] < 0) {
			char *what = xasprintf("must be a strategy: %s", STRATEGY_LIST);
			row_error(l, "rule_band", row, class_names[c], what);
			free(what);
			b.strategy[c] = 0;
		} else if (name && (has_lo && lo < strategy_catalogue[b.strategy[c]].min_n)) {
			char *what = xasprintf("%s needs lengths of %d or more; the band starts at %d", name,
					       strategy_catalogue[b.strategy[c]].min_n, lo);
			row_error(l, "rule_band", row, class_names[c], what);
			free(what);
		} else if (name && strategy_catalogue[b.strategy[c]].max_n >= 0 &&
			   (null_hi || hi > strategy_catalogue[b.strategy[c]].max_n)) {
			char *what = xasprintf("%s serves lengths up to %d; the band reaches %s", name,
					       strategy_catalogue[b.strategy[c]].max_n, null_hi ? "beyond any bound" : "further");
			row_error(l, "rule_band", row, class_names[c], what);
			free(what);
		}
		const struct flavor *fl = NULL;
		for (size_t i = 0; flavor && i < m->n_flavors; i++)
			if (m->flavors[i].name && strcmp(m->flavors[i].name, flavor) == 0)
				fl = &m->flavors[i];
		if (name && fl && fl->isa && fl->isa_level >= 0 &&
		    !strategy_offered(b.strategy[c], fl->isa_level, fl->moves)) {
			char *what = strategy_catalogue[b.strategy[c]].isa > fl->isa_level
					     ? xasprintf("%s is not a strategy of flavor %s, whose isa is %s", name, flavor, fl->isa)
					     : xasprintf("%s is not a strategy of flavor %s, which has no memmove over a C library's",
							 name, flavor);
			row_error(l, "rule_band", row, class_names[c], what);
			free(what);
		}
		if (name && r && strategy_catalogue[b.strategy[c]].aligns && r->align_dst == 0) {
			char *what = xasprintf("%s needs the rule's align_dst; it is 0", name);
			row_error(l, "rule_band", row, class_names[c], what);
			free(what);
		}
		free(name);
	}
	if (r && r->n_bands == MAX_BANDS) {
		char *what = xasprintf("a rule has at most %d bands", MAX_BANDS);
		row_error(l, "rule_band", row, "length_lo", what);
		free(what);
	} else if (r) {
		r->bands[r->n_bands++] = b;
	}
	free(uarch);
	free(flavor);
}

/* Bands arrive sorted by length_lo: they must start at 0, touch, and end
 * unbounded, so that every length has exactly one band. */
static void check_bands(struct loader *l, const struct rule *r)
{
	char *row = xasprintf("(uarch='%s', flavor='%s')", r->uarch, r->flavor);
	if (r->n_bands == 0) {
		row_error(l, "rule", row, "uarch", "a measured rule needs its table: no rule_band row");
	} else if (r->bands[0].lo != 0) {
		row_error(l, "rule_band", row, "length_lo", "the first band must start at length 0");
	} else if (r->bands[r->n_bands - 1].hi != BAND_UNBOUNDED) {
		row_error(l, "rule_band", row, "length_hi", "the last band must have no bound (NULL)");
	}
	for (int i = 1; i < r->n_bands; i++) {
		if (r->bands[i - 1].hi != BAND_UNBOUNDED && r->bands[i].lo == r->bands[i - 1].hi + 1)
			continue;
		char *what = xasprintf("band %u.. does not start where the band before it ends (%u..%s): bands must "
				       "touch without overlap",
				       r->bands[i].lo, r->bands[i - 1].lo,
				       r->bands[i - 1].hi == BAND_UNBOUNDED ? "" : "its length_hi");
		row_error(l, "rule_band", row, "length_lo", what);
		free(what);
	}
	free(row);
}

static void load_bands(struct loader *l, struct model *m)
{
	sqlite3_stmt *st = prepare(l, "SELECT uarch, flavor, length_lo, length_hi, zero, above, near, below, elsewhere "
				      "FROM rule_band ORDER BY uarch, flavor, length_lo");
	if (!st)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *row = row_key(st, 3);
		add_band(l, m, st, row);
		free(row);
	}
	sqlite3_finalize(st);
	for (size_t i = 0; i < m->n_rules; i++)
		if (m->rules[i].uarch && m->rules[i].flavor) {
			check_bands(l, &m->rules[i]);
			check_overlap_columns(l, m, &m->rules[i]);
		}
}

static void load_inherits(struct loader *l, struct model *m)
{
	sqlite3_stmt *st = prepare(l, "SELECT uarch, flavor, from_uarch, reason FROM inherit ORDER BY uarch, flavor");
	if (!st)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *row = row_key(st, 2);
		struct inherit in = {0};
		in.uarch = col_text(l, st, 0, "inherit", row, 0);
		in.flavor = col_text(l, st, 1, "inherit", row, 0);
		in.from = col_text(l, st, 2, "inherit", row, 0);
		in.reason = col_text(l, st, 3, "inherit", row, 0);
		const struct uarch *u = in.uarch ? model_uarch(m, in.uarch) : NULL;
		const struct uarch *from = in.from ? model_uarch(m, in.from) : NULL;
		if (in.uarch && !u)
			row_error(l, "inherit", row, "uarch", "names no row of table uarch");
		if (in.flavor && !has_flavor(m, in.flavor))
			row_error(l, "inherit", row, "flavor", "unknown flavor: not a row of table flavor");
		if (in.from && !from)
			row_error(l, "inherit", row, "from_uarch", "names no row of table uarch");
		else if (u && from && u->vendor && from->vendor && strcmp(u->vendor, from->vendor) != 0)
			row_error(l, "inherit", row, "from_uarch", "names an entry of another vendor");
		else if (from && in.flavor && !model_rule(m, in.from, in.flavor))
			row_error(l, "inherit", row, "from_uarch",
				  "names an entry with no measured rule for this flavor: only a measurement is inherited");
		if (u && in.flavor && model_rule(m, in.uarch, in.flavor))
			row_error(l, "inherit", row, "uarch", "the entry has its own measured rule for this flavor");
		if (in.reason && !*in.reason)
			row_error(l, "inherit", row, "reason", "must cite why: a manual, or a measurement of the same design");
		free(row);
		m->inherits = xrealloc(m->inherits, (m->n_inherits + 1) * sizeof *m->inherits);
		m->inherits[m->n_inherits++] = in;
	}
	sqlite3_finalize(st);
}

void load_rules(struct loader *l, struct model *m)
{
	load_rule_rows(l, m);
	load_bands(l, m);
	load_inherits(l, m);
	load_runs(l, m);
}
