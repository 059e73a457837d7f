/* The run archive read: its lines parsed and checked, its checksum, and
 * the file loaded (archive.h). */
#include "archive.h"
#include "grid_gate.h"
#include "search.h"
#include "trials.h"
#include "archive_cursor.h"
#include "repair.h"

#include "../common/rule_limits.h"
#include "../common/sha256.h"
#include "../common/text.h"
#include "../common/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int parse_cpuid(struct cursor *c, const char *v, struct cpuid_leaf *l)
{
	unsigned int f[6];
	int used = 0;
	if (sscanf(v, "%8x %8x %8x %8x %8x %8x%n", &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &used) != 6 ||
	    (size_t)used != strlen(v) || strlen(v) != 6 * 8 + 5)
		return cursor_fail(c, "a cpuid line is six 8-digit hex words: leaf, subleaf, eax, ebx, ecx, edx");
	*l = (struct cpuid_leaf){f[0], f[1], f[2], f[3], f[4], f[5]};
	return 0;
}

static int parse_point(struct cursor *c, char *line, int passes, struct point *p)
{
	char *save = NULL, *tok = strtok_r(line, " ", &save);
	p->strategy = tok ? strategy_named(tok) : -1;
	if (p->strategy < 0)
		return cursor_fail(c, "'%.40s' is not a strategy of this tree", tok ? tok : "");
	long v[3];
	static const char *const what[] = {"length", "distance", "misalignment"};
	static const long hi[] = {1L << 30, 4095, 63};
	for (int i = 0; i < 3; i++) {
		tok = strtok_r(NULL, " ", &save);
		if (!tok || cursor_int(c, tok, what[i], i == 0 ? 1 : 0, hi[i], &v[i]))
			return tok ? -1 : cursor_fail(c, "a point lacks its %s", what[i]);
	}
	p->length = (unsigned int)v[0];
	p->distance = (unsigned int)v[1];
	p->misalign = (unsigned int)v[2];
	if (p->misalign != p->distance % 64)
		return cursor_fail(c, "misalignment %u at distance %u: the source is page-aligned, so it is %u", p->misalign,
			    p->distance, p->distance % 64);
	if (!strategy_serves(p->strategy, p->length))
		return cursor_fail(c, "%s cannot copy %u bytes", strategy_name[p->strategy], p->length);
	for (int k = 0; k < passes; k++) {
		tok = strtok_r(NULL, " ", &save);
		char *end;
		double t = tok ? strtod(tok, &end) : 0;
		if (!tok || *end || !isfinite(t) || t <= 0 || t > 1e12)
			return cursor_fail(c, "pass %d's time is missing or not a positive number of ticks", k + 1);
		p->pass_min[k] = t;
	}
	if (strtok_r(NULL, " ", &save))
		return cursor_fail(c, "more times than the %d passes", passes);
	return 0;
}

static int cmp_point(const void *x, const void *y)
{
	const struct point *p = x, *q = y;
	if (p->strategy != q->strategy)
		return p->strategy < q->strategy ? -1 : 1;
	if (p->length != q->length)
		return p->length < q->length ? -1 : 1;
	return p->distance < q->distance ? -1 : p->distance > q->distance;
}

/* The derivation reads one time per point: a point twice is an archive
 * that was edited, and no run. */
static int points_distinct(struct cursor *c, const struct measurement *m)
{
	struct point *sorted = malloc(m->n * sizeof *sorted);
	if (!sorted)
		return cursor_fail(c, "out of memory");
	memcpy(sorted, m->points, m->n * sizeof *sorted);
	qsort(sorted, m->n, sizeof *sorted, cmp_point);
	int rc = 0;
	for (size_t i = 1; i < m->n && !rc; i++)
		if (cmp_point(&sorted[i - 1], &sorted[i]) == 0)
			rc = cursor_fail(c, "the point %s %u %u appears twice", strategy_name[sorted[i].strategy],
				  sorted[i].length, sorted[i].distance);
	free(sorted);
	return rc;
}

/* The archive's head: the probe's version, the date and the machine's
 * words. */
static int parse_head(struct cursor *c, struct run_archive *a)
{
	char line[512];
	long v;
	const char *s;
	if (!(s = cursor_keyed(c, line, sizeof line, "probe")) || cursor_int(c, s, "probe version", 0, 1000000, &v))
		return -1;
	a->probe_version = (int)v;
	if (a->probe_version < PROBE_VERSION_OLDEST || a->probe_version > PROBE_VERSION)
		return cursor_fail(c, "written by probe version %d; this uarchgen imports versions %d to %d (measure again "
			       "with the portable probe of this tree: make probe-portable)",
			    a->probe_version, PROBE_VERSION_OLDEST, PROBE_VERSION);
	if (!(s = cursor_keyed(c, line, sizeof line, "date")))
		return -1;
	if (!day_exists(s))
		return cursor_fail(c, "date '%.20s' is not a real YYYY-MM-DD", s);
	strcpy(a->date, s);
	if (cursor_text_field(c, line, sizeof line, "kernel", a->kernel) ||
	    cursor_text_field(c, line, sizeof line, "microcode", a->microcode) ||
	    cursor_text_field(c, line, sizeof line, "platform", a->platform) ||
	    cursor_text_field(c, line, sizeof line, "hypervisor", a->hypervisor))
		return -1;
	return 0;
}

/* The CPUID leaves, up to the first line that is none. */
static int parse_cpuid_leaves(struct cursor *c, struct run_archive *a)
{
	char line[512];
	for (;;) {
		const char *mark = c->p;
		int at = c->line;
		if (cursor_next_line(c, line, sizeof line))
			return -1;
		if (strncmp(line, "cpuid ", 6) != 0) {
			c->p = mark, c->line = at;
			break;
		}
		if (a->cpuid.n == MAX_CPUID_LEAVES)
			return cursor_fail(c, "more than %d cpuid leaves", MAX_CPUID_LEAVES);
		struct cpuid_leaf l;
		if (parse_cpuid(c, line + 6, &l))
			return -1;
		if (cpuid_find(&a->cpuid, l.leaf, l.subleaf))
			return cursor_fail(c, "leaf %08x.%x appears twice", l.leaf, l.subleaf);
		a->cpuid.leaves[a->cpuid.n++] = l;
	}
	if (!cpuid_find(&a->cpuid, 0, 0) || !cpuid_find(&a->cpuid, 1, 0))
		return cursor_fail(c, "the archive lacks CPUID leaves 0 and 1, which say what the CPU is");
	return 0;
}

/* The flavor, the timer's settings and every point. */
static int parse_points(struct cursor *c, struct run_archive *a)
{
	char line[512];
	long v;
	const char *s;
	if (!(s = cursor_keyed(c, line, sizeof line, "flavor")))
		return -1;
	if (strlen(s) < 1 || strlen(s) > 31 || s[0] < 'a' || s[0] > 'z' ||
	    strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(s))
		return cursor_fail(c, "flavor '%.40s' is not a flavor name", s);
	strcpy(a->flavor, s);
	if (!(s = cursor_keyed(c, line, sizeof line, "samples")) || cursor_int(c, s, "samples", 1, 1000, &v))
		return -1;
	a->samples = (int)v;
	if (!(s = cursor_keyed(c, line, sizeof line, "passes")) || cursor_int(c, s, "passes", 1, MAX_PASSES, &v))
		return -1;
	a->m.passes = (int)v;
	if (!(s = cursor_keyed(c, line, sizeof line, "overhead")))
		return -1;
	char *end;
	a->m.overhead = strtod(s, &end);
	if (*end || end == s || !isfinite(a->m.overhead) || a->m.overhead < 0)
		return cursor_fail(c, "overhead '%.40s' is not a number of ticks", s);
	if (!(s = cursor_keyed(c, line, sizeof line, "points")) || cursor_int(c, s, "points", 1, 10000000, &v))
		return -1;
	a->m.n = (size_t)v;
	a->m.points = calloc(a->m.n, sizeof *a->m.points);
	if (!a->m.points)
		return cursor_fail(c, "out of memory for %zu points", a->m.n);
	for (size_t i = 0; i < a->m.n; i++) {
		if (cursor_next_line(c, line, sizeof line) || parse_point(c, line, a->m.passes, &a->m.points[i]))
			return -1;
	}
	if (points_distinct(c, &a->m))
		return -1;
	return 0;
}

static int parse_gate(struct cursor *c, struct run_archive *a);

/* The search's lines (search.h), where they replace the candidates and
 * the trials, then the gate's. */
static int parse_search(struct cursor *c, struct run_archive *a)
{
	char line[512];
	char why[320];
	a->dispatch.measured = 1, a->dispatch.chosen = CHOSE_BASELINE;
	for (int k = -1; k < a->dispatch.n_checks; k++) {
		if (cursor_trailing_line(c, line, sizeof line))
			return -1;
		if (k < 0 ? search_count_parse(line, &a->dispatch, why, sizeof why)
			  : search_check_parse(line, &a->dispatch.checks[k], why, sizeof why))
			return cursor_fail(c, "%s", why);
	}
	if (search_checks_valid(&a->dispatch, why, sizeof why))
		return cursor_fail(c, "%s", why);
	return parse_gate(c, a);
}

/* The lines after the points, each from the probe version that added it:
 * the dispatch's timings, the trials, the grid gate and its repairs. */
static int parse_trials(struct cursor *c, struct run_archive *a)
{
	char line[512];
	char why[320];
	int trials = a->probe_version < SEARCH_VERSION;
	for (int k = 0; a->probe_version >= 3 && k < (trials ? DISPATCH_LINES : DISPATCH_TABLES); k++) {
		if (cursor_trailing_line(c, line, sizeof line))
			return -1;
		if (dispatch_parse(line, k, &a->dispatch, why, sizeof why))
			return cursor_fail(c, "%s", why);
	}
	if (!trials) {
		a->dispatch.profile_fit = a->dispatch.against_reference = a->probe_version >= PROFILE_FIT_VERSION;
		return parse_search(c, a);
	}
	for (int k = -1; a->probe_version >= BAND_TRIALS_VERSION && k < a->dispatch.n_trials; k++) {
		if (cursor_trailing_line(c, line, sizeof line))
			return -1;
		if (k < 0 ? band_trials_count(line, &a->dispatch, why, sizeof why)
			  : band_trial_parse(line, &a->dispatch.trials[k], why, sizeof why))
			return cursor_fail(c, "%s", why);
	}
	if (a->probe_version >= SMALL_TRIAL_VERSION) {
		if (cursor_trailing_line(c, line, sizeof line))
			return -1;
		if (small_trial_parse(line, &a->dispatch.small, why, sizeof why))
			return cursor_fail(c, "%s", why);
	}
	if (a->probe_version >= SHAPED_TRIAL_VERSION) {
		if (cursor_trailing_line(c, line, sizeof line))
			return -1;
		if (shaped_trial_parse(line, &a->dispatch, why, sizeof why))
			return cursor_fail(c, "%s", why);
	}
	if (a->probe_version >= CLASSES_TRIAL_VERSION) {
		if (cursor_trailing_line(c, line, sizeof line))
			return -1;
		if (classes_trial_parse(line, &a->dispatch, why, sizeof why))
			return cursor_fail(c, "%s", why);
	}
	a->dispatch.unchecked = a->probe_version < GRID_GATE_VERSION;
	return parse_gate(c, a);
}

/* memmove's copies timed where the ranges overlap. */
static int parse_overlaps(struct cursor *c, struct run_archive *a)
{
	char line[512];
	char why[320];
	for (long k = -1; k < (long)a->overlap.n; k++) {
		if (cursor_trailing_line(c, line, sizeof line))
			return -1;
		if (k < 0 ? overlap_count_parse(line, &a->overlap, why, sizeof why)
			  : overlap_point_parse(line, a->overlap.passes, &a->overlap.points[k], why, sizeof why))
			return cursor_fail(c, "%s", why);
	}
	if (overlap_points_distinct(&a->overlap, why, sizeof why))
		return cursor_fail(c, "%s", why);
	return 0;
}

/* The grid gate's line and its repairs. */
static int parse_gate(struct cursor *c, struct run_archive *a)
{
	char line[512];
	char why[320];
	if (a->probe_version >= GRID_GATE_VERSION) {
		if (cursor_trailing_line(c, line, sizeof line))
			return -1;
		if (grid_gate_parse(line, &a->dispatch, why, sizeof why))
			return cursor_fail(c, "%s", why);
	}
	for (int k = -1; a->probe_version >= REPAIRS_VERSION && k < a->dispatch.n_repairs; k++) {
		if (cursor_trailing_line(c, line, sizeof line))
			return -1;
		if (k < 0 ? repairs_count_parse(line, &a->dispatch, why, sizeof why)
			  : repair_parse(line, &a->dispatch.repairs[k], why, sizeof why))
			return cursor_fail(c, "%s", why);
	}
	return a->probe_version >= OVERLAP_VERSION ? parse_overlaps(c, a) : 0;
}

static int parse_body(struct cursor *c, struct run_archive *a)
{
	return parse_head(c, a) || parse_cpuid_leaves(c, a) || parse_points(c, a) || parse_trials(c, a) ? -1 : 0;
}

int archive_checksum(const char *text, size_t len, char hex[65], size_t *body)
{
	/* The checksum line ends the archive: without it the file was cut
	 * short; with a different sum, changed. */
	static const char key[] = "sha256 ";
	size_t tail = sizeof key - 1 + 64 + 1;
	if (len < tail)
		return 1;
	const char *sum = text + len - tail;
	if (text[len - 1] != '\n' || memcmp(sum, key, sizeof key - 1) != 0 || (sum > text && sum[-1] != '\n'))
		return 1;
	sha256_hex(text, (size_t)(sum - text), hex);
	if (memcmp(hex, sum + sizeof key - 1, 64) != 0)
		return 2;
	if (body)
		*body = (size_t)(sum - text);
	return 0;
}

int archive_parse(const char *text, size_t len, struct run_archive *a, char *why, size_t why_size)
{
	memset(a, 0, sizeof *a);
	struct cursor c = {text, text + len, 0, why, why_size};
	char first[64];
	if (cursor_next_line(&c, first, sizeof first) || strncmp(first, ARCHIVE_MAGIC " ", sizeof ARCHIVE_MAGIC) != 0) {
		snprintf(why, why_size, "not a uarchcopy run archive (its first line is not '" ARCHIVE_MAGIC " N')");
		return -1;
	}
	if (strcmp(first + sizeof ARCHIVE_MAGIC, "1") != 0) {
		snprintf(why, why_size, "archive format '%.20s'; this uarchgen reads format %d", first + sizeof ARCHIVE_MAGIC,
			 ARCHIVE_FORMAT);
		return -1;
	}
	size_t body;
	int sum = archive_checksum(text, len, a->sha256, &body);
	if (sum) {
		snprintf(why, why_size, "%s",
			 sum == 1 ? "truncated: it does not end with its checksum line (sha256 ...)"
				  : "checksum mismatch: the archive was changed or damaged after the probe wrote it");
		return -1;
	}
	c.end = text + body;
	if (parse_body(&c, a)) {
		archive_free(a);
		return -1;
	}
	if (c.p != c.end) {
		c.line++;
		cursor_fail(&c, "more points than its count says");
		archive_free(a);
		return -1;
	}
	return 0;
}

int archive_load(const char *path, struct run_archive *a, char *why, size_t why_size)
{
	struct stat sb;
	memset(a, 0, sizeof *a);
	if (stat(path, &sb) != 0) {
		snprintf(why, why_size, "cannot read it: %s", strerror(errno));
		return -1;
	}
	if (!S_ISREG(sb.st_mode) || sb.st_size > (off_t)ARCHIVE_BYTES_MAX) {
		snprintf(why, why_size, "not a run archive: %s", S_ISREG(sb.st_mode) ? "larger than any" : "not a file");
		return -1;
	}
	size_t len;
	char *text = read_file(path, &len);
	if (!text) {
		snprintf(why, why_size, "cannot read it: %s", strerror(errno));
		return -1;
	}
	if (archive_parse(text, len, a, why, why_size)) {
		free(text);
		return -1;
	}
	a->text = text;
	a->text_len = len;
	return 0;
}

void archive_free(struct run_archive *a)
{
	measurement_free(&a->m);
	overlap_timings_free(&a->overlap);
	free(a->text);
	a->text = NULL;
}
