${banner("/*", "*/")}
@ local P = opts.prefix
@ local G = string.upper(P)
@ local function sig(family, model)
@   -- CPUID leaf 1 EAX for a display family and model, stepping 1.
@   local base_family, ext_family = family, 0
@   if family >= 0xf then base_family, ext_family = 0xf, family - 0xf end
@   if family < 6 and model > 15 then return nil end
@   return (ext_family << 20) | ((model >> 4) << 16) | (base_family << 8) | ((model & 0xf) << 4) | 1
@ end
@ local function vendor_words(v)
@   local function word(s) return string.format("0x%08xu", string.unpack("<I4", s)) end
@   return word(v:sub(1, 4)) .. ", " .. word(v:sub(5, 8)) .. ", " .. word(v:sub(9, 12))
@ end
@ local function case(vendor, family, model)
@   local r = lookup(vendor, family, model, "kernel")
@   local s = sig(family, model)
@   return string.format('{ "%s", { %s }, 0x%02x, 0x%02x, 0x%08xu, %d, { %d, %d, %d, "%s", "%s" } }',
@     vendor, vendor_words(vendor), family, model, s or 0, s and 1 or 0,
@     r.window, r.align_dst, r.measured and 1 or 0, r.entry or "", r.window_from or "")
@ end
#include "rule_tests.h"

#include "../copy_rule.h"

#include <stdint.h>

/* ---- reporting, without libc ---- */

struct detail {
	char text[200];
	size_t len;
	int failed;
};

static void say(struct detail *d, const char *s)
{
	for (; *s && d->len + 1 < sizeof d->text; s++)
		d->text[d->len++] = *s;
	d->text[d->len] = '\0';
}

static void say_uint(struct detail *d, unsigned long v)
{
	char digits[24];
	char one[2] = {0, 0};
	int n = 0;
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0) {
		one[0] = digits[--n];
		say(d, one);
	}
}

/* Records the first failure of a test; later ones add nothing. */
static struct detail *fail(struct detail *d)
{
	if (d->failed++)
		return NULL;
	return d;
}

static void finish(struct ${P}test_ctx *t, const char *group, const char *test, struct detail *d)
{
	if (d->failed)
		t->failed++;
	else
		t->passed++;
	t->report(t->cookie, group, test, !d->failed, d->text);
	d->len = 0;
	d->failed = 0;
	d->text[0] = '\0';
}

/* ---- copies against a reference, on a sentinel background ---- */

/* A background with no short period, so a copy from a wrong offset or a
 * store outside [dst, dst + n) changes bytes it should not. */
static unsigned char background(size_t i)
{
	uint32_t x = (uint32_t)i * 2654435761u;
	return (unsigned char)((x >> 24) ^ (x >> 11));
}

struct layout {
	size_t src, dst, end;
};

/* dst lies (dist mod 4096) above src, at dst_mis past a 64-byte boundary,
 * and at least n above it (disjoint) unless same, where dst == src. 64
 * guard bytes are kept below src and above dst + n. */
static struct layout place(size_t n, unsigned int dist, unsigned int dst_mis, int same)
{
	struct layout l;
	size_t gap = same ? 0 : dist % 4096u;
	while (!same && gap < n)
		gap += 4096;
	l.src = 64 + ((dst_mis + 64u * 64u - gap % 64u) % 64u);
	l.dst = l.src + gap;
	l.end = l.dst + n + 64;
	return l;
}

typedef void *(*copy_fn)(void *dst, const void *src, size_t n);

/* The reference: one byte at a time; volatile so the compiler cannot turn
 * it into a call to the memcpy under test. */
static void reference_copy(unsigned char *arena, const struct layout *l, size_t n)
{
	volatile unsigned char *a = arena;
	size_t i;
	for (i = 0; i < n; i++)
		a[l->dst + i] = a[l->src + i];
}

static void check_copy(struct ${P}test_ctx *t, struct detail *d, const char *name, copy_fn fn, size_t n,
		       unsigned int dist, unsigned int dst_mis, int same)
{
	struct layout l = place(n, dist, dst_mis, same);
	volatile unsigned char *w = t->work, *e = t->expect;
	struct detail *why;
	size_t i;
	void *ret;
	if (l.end > ${G}TEST_ARENA) {
		if ((why = fail(d)) != NULL)
			say(why, "layout does not fit the arena");
		return;
	}
	for (i = 0; i < l.end; i++)
		w[i] = e[i] = background(i);
	reference_copy(t->expect, &l, n);
	ret = fn(t->work + l.dst, t->work + l.src, n);
	for (i = 0; i < l.end && w[i] == e[i]; i++)
		;
	if (ret == t->work + l.dst && i == l.end)
		return;
	if ((why = fail(d)) == NULL)
		return;
	say(why, name);
	say(why, " n=");
	say_uint(why, n);
	say(why, same ? " dst==src" : " d=");
	if (!same)
		say_uint(why, dist % 4096u);
	say(why, " dst%64=");
	say_uint(why, dst_mis);
	if (ret != t->work + l.dst) {
		say(why, ": did not return dst");
	} else {
		say(why, i < l.dst || i >= l.dst + n ? ": wrote outside dst, at offset " : ": wrong byte at dst+");
		say_uint(why, i < l.dst ? l.dst - i : i - l.dst);
		if (i < l.dst)
			say(why, " below dst");
	}
}

static const size_t long_lengths[] = {4096, 8192, 65536};

static void sweep_lengths(struct ${P}test_ctx *t, struct detail *d, const char *name, copy_fn fn, unsigned int dist)
{
	size_t n, k;
	for (n = 0; n <= 300; n++)
		check_copy(t, d, name, fn, n, dist, (unsigned int)(n * 7 % 64), 0);
	for (k = 0; k < 3; k++)
		check_copy(t, d, name, fn, long_lengths[k], dist, (unsigned int)k, 0);
}

static void sweep_misalignments(struct ${P}test_ctx *t, struct detail *d, const char *name, copy_fn fn,
				unsigned int dist)
{
	static const size_t lengths[] = {64, 300, 4096};
	unsigned int m;
	size_t k;
	for (m = 0; m < 64; m++)
		for (k = 0; k < 3; k++)
			check_copy(t, d, name, fn, lengths[k], dist, m, 0);
}

static void sweep_distances(struct ${P}test_ctx *t, struct detail *d, const char *name, copy_fn fn)
{
	static const size_t lengths[] = {64, 1000};
	unsigned int dist;
	size_t k;
	for (k = 0; k < 2; k++) {
		for (dist = 0; dist < 1024; dist++)
			check_copy(t, d, name, fn, lengths[k], dist, dist % 8, 0);
		for (dist = 4032; dist < 4096; dist++)
			check_copy(t, d, name, fn, lengths[k], dist, dist % 8, 0);
	}
}

static void sweep_same(struct ${P}test_ctx *t, struct detail *d, const char *name, copy_fn fn)
{
	size_t n, k;
	for (n = 0; n <= 300; n++)
		check_copy(t, d, name, fn, n, 0, (unsigned int)(n % 64), 1);
	for (k = 0; k < 3; k++)
		check_copy(t, d, name, fn, long_lengths[k], 0, 3, 1);
}

/* ---- the rule's predicate ---- */

/* What the rule says, written here independently of copy.asm. */
static int expect_down(size_t n, unsigned int dist, unsigned int window)
{
	return n >= 64 && dist % 4096u != 0 && dist % 4096u < window;
}

static void check_edge(struct ${P}test_ctx *t, struct detail *d, size_t n, unsigned int dist, unsigned int window)
{
	struct layout l = place(n, dist, 0, 0);
	int got = ${P}copy_goes_down(t->work + l.dst, t->work + l.src, n);
	struct detail *why;
	if (got == expect_down(n, dist, window) || (why = fail(d)) == NULL)
		return;
	say(why, "n=");
	say_uint(why, n);
	say(why, " d=");
	say_uint(why, dist);
	say(why, got ? ": went down, the rule says forward" : ": went forward, the rule says down");
}

static void check_edges(struct ${P}test_ctx *t, struct detail *d, unsigned int window)
{
	check_edge(t, d, 63, 1, window);
	check_edge(t, d, 64, 1, window);
	check_edge(t, d, 63, window ? window - 1 : 1, window);
	check_edge(t, d, 64, window ? window - 1 : 1, window);
	check_edge(t, d, 64, window, window);
	check_edge(t, d, 65, window + 1, window);
	check_edge(t, d, 64, 0, window);
	check_edge(t, d, 65536, 0, window);
	check_edge(t, d, 64, 4095, window);
	check_edge(t, d, 4096, window ? window - 1 : 1, window);
	check_edge(t, d, 65536, 4096 - 1, window);
}

/* ---- lookup, by family and model and by recorded CPUID words ---- */

struct lookup_case {
	const char *vendor;
	uint32_t vendor_words[3];
	unsigned int family, model;
	uint32_t signature;
	int has_signature;
	struct ${P}rule want;
};

static int same_text(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static int same_rule(const struct ${P}rule *a, const struct ${P}rule *b)
{
	return a->window == b->window && a->align_dst == b->align_dst && a->measured == b->measured &&
	       same_text(a->entry, b->entry) && same_text(a->source, b->source);
}

static void say_case(struct detail *why, const struct lookup_case *c, const struct ${P}rule *got)
{
	say(why, c->vendor);
	say(why, " family ");
	say_uint(why, c->family);
	say(why, " model ");
	say_uint(why, c->model);
	say(why, ": got window ");
	say_uint(why, got->window);
	say(why, " entry '");
	say(why, got->entry);
	say(why, "' source '");
	say(why, got->source);
	say(why, "', want window ");
	say_uint(why, c->want.window);
	say(why, " entry '");
	say(why, c->want.entry);
	say(why, "' source '");
	say(why, c->want.source);
	say(why, "'");
}

static void check_lookups(struct detail *d, const struct lookup_case *cases, size_t n, int by_cpuid)
{
	size_t i;
	for (i = 0; i < n; i++) {
		const struct lookup_case *c = &cases[i];
		const struct ${P}rule *got;
		struct detail *why;
		if (by_cpuid) {
			struct ${P}cpuid id;
			if (!c->has_signature)
				continue;
			id.vendor[0] = c->vendor_words[0];
			id.vendor[1] = c->vendor_words[1];
			id.vendor[2] = c->vendor_words[2];
			id.signature = c->signature;
			got = ${P}rule_from_cpuid(&id);
		} else {
			got = ${P}rule_lookup(c->vendor, c->family, c->model);
		}
		if (!same_rule(got, &c->want) && (why = fail(d)) != NULL)
			say_case(why, c, got);
	}
}

/* ---- groups ---- */

/* A group for one entry: lookup at the edges of each of its CPUID ranges and
 * just outside them, then, under the rule the lookup gives, the copy sweeps
 * and the predicate's edges. */
static void run_entry(struct ${P}test_ctx *t, const char *group, const struct lookup_case *cases, size_t n_cases,
		      int sweeps)
{
	struct detail d = {{0}, 0, 0};
	const struct lookup_case *own = &cases[0];
	const struct ${P}rule *rule;
	check_lookups(&d, cases, n_cases, 0);
	finish(t, group, "lookup", &d);
	check_lookups(&d, cases, n_cases, 1);
	finish(t, group, "fake cpuid", &d);
	if (!sweeps)
		return;
	rule = ${P}rule_lookup(own->vendor, own->family, own->model);
	${P}rule_install(rule);
	check_edges(t, &d, own->want.window);
	finish(t, group, "predicate edges", &d);
	sweep_lengths(t, &d, "memcpy", ${P}memcpy, 1);
	sweep_lengths(t, &d, "memcpy", ${P}memcpy, 2048);
	if (own->want.window > 1)
		sweep_lengths(t, &d, "memcpy", ${P}memcpy, own->want.window - 1);
	if (own->want.window > 0 && own->want.window < 4096)
		sweep_lengths(t, &d, "memcpy", ${P}memcpy, own->want.window);
	finish(t, group, "every length", &d);
	sweep_misalignments(t, &d, "memcpy", ${P}memcpy, 1);
	sweep_misalignments(t, &d, "memcpy", ${P}memcpy, 2048);
	finish(t, group, "every dst misalignment", &d);
	sweep_distances(t, &d, "memcpy", ${P}memcpy);
	finish(t, group, "every distance", &d);
	sweep_same(t, &d, "memcpy", ${P}memcpy);
	finish(t, group, "dst == src", &d);
}

@ for _, e in ipairs(db.entries) do
@   local r = e.rules.kernel
/* ${e.name}: ${e.example}. Rule: window ${r.window}, align_dst ${r.align_dst}, ${r.measured and "measured" or ("extrapolated from " .. (r.window_from or "nothing"))}. */
static const struct lookup_case cases_${e.name}[] = {
@   -- The first case is the entry's own first model: its rule is the one swept.
@   for _, rg in ipairs(e.ranges) do
	${case(e.vendor, rg.family, rg.model_lo)},
	${case(e.vendor, rg.family, rg.model_hi)},
@     if rg.model_lo > 0 then
	${case(e.vendor, rg.family, rg.model_lo - 1)},
@     end
@     if rg.model_hi < 255 then
	${case(e.vendor, rg.family, rg.model_hi + 1)},
@     end
@   end
};

static void group_${e.name}(struct ${P}test_ctx *t)
{
	run_entry(t, "${e.name}", cases_${e.name}, sizeof cases_${e.name} / sizeof cases_${e.name}[0], ${(not opts.target or opts.target == e.name) and 1 or 0});
}

@ end
/* Cores no entry names: their vendor's default, or window 0 for a vendor
 * the database does not know. */
static const struct lookup_case cases_fallback[] = {
@ for _, d in ipairs(db.defaults) do
@   if d.flavor == "kernel" then
	${case(d.vendor, 0x0f, 0x01)},
	${case(d.vendor, 0x05, 0x04)},
@   end
@ end
	${case("HygonGenuine", 0x18, 0x00)},
	${case("CentaurHauls", 0x06, 0x0f)},
	${case("VIA VIA VIA ", 0x06, 0x0f)},
};

static void group_fallback(struct ${P}test_ctx *t)
{
	struct detail d = {{0}, 0, 0};
	check_lookups(&d, cases_fallback, sizeof cases_fallback / sizeof cases_fallback[0], 0);
	finish(t, "fallback", "lookup", &d);
	check_lookups(&d, cases_fallback, sizeof cases_fallback / sizeof cases_fallback[0], 1);
	finish(t, "fallback", "fake cpuid", &d);
}

/* The descending copy on its own, at every length from its minimum of 8,
 * every destination alignment within a word, and distances inside and
 * outside any window. */
static void group_copy_down(struct ${P}test_ctx *t)
{
	static const unsigned int distances[] = {1, 31, 2051, 4095};
	struct detail d = {{0}, 0, 0};
	unsigned int m;
	size_t n, k;
	for (n = 8; n <= 300; n++)
		for (m = 0; m < 8; m++)
			for (k = 0; k < 4; k++)
				check_copy(t, &d, "copy_down", ${P}copy_down, n, distances[k], m, 0);
	for (k = 0; k < 3; k++)
		for (m = 0; m < 8; m++)
			check_copy(t, &d, "copy_down", ${P}copy_down, long_lengths[k], 17, m, 0);
	finish(t, "copy_down", "every length and alignment", &d);
	for (n = 8; n <= 300; n++)
		check_copy(t, &d, "copy_down", ${P}copy_down, n, 0, (unsigned int)(n % 64), 1);
	finish(t, "copy_down", "dst == src", &d);
}

/* The forward path on its own, whatever the installed rule. */
static void group_copy_forward(struct ${P}test_ctx *t)
{
	struct detail d = {{0}, 0, 0};
	unsigned int m;
	size_t n, k;
	for (n = 0; n <= 300; n++)
		for (m = 0; m < 64; m += 9)
			check_copy(t, &d, "copy_forward", ${P}copy_forward, n, 2048, m, 0);
	for (k = 0; k < 3; k++)
		check_copy(t, &d, "copy_forward", ${P}copy_forward, long_lengths[k], 100, 5, 0);
	finish(t, "copy_forward", "every length", &d);
}

@ if not opts.target then
/* The alignment head of the forward path, under each align_dst a rule may
 * hold, whether or not an entry measures one yet. */
static void group_align_head(struct ${P}test_ctx *t)
{
	static const unsigned int aligns[] = {8, 16, 32, 64};
	struct detail d = {{0}, 0, 0};
	struct ${P}rule rule = {0, 0, 0, "", ""};
	size_t n, k;
	unsigned int m;
	for (k = 0; k < 4; k++) {
		rule.align_dst = aligns[k];
		${P}rule_install(&rule);
		for (n = 0; n <= 300; n++)
			check_copy(t, &d, "memcpy", ${P}memcpy, n, 2048, (unsigned int)(n % 64), 0);
		for (m = 0; m < 64; m++) {
			check_copy(t, &d, "memcpy", ${P}memcpy, 64, 2048, m, 0);
			check_copy(t, &d, "memcpy", ${P}memcpy, 4096, 2048, m, 0);
		}
		sweep_same(t, &d, "memcpy", ${P}memcpy);
	}
	finish(t, "align_head", "every alignment, length and misalignment", &d);
	rule.align_dst = 0;
	${P}rule_install(&rule);
}

@ end
/* The user copies without faults: the same sweeps, through memcpy's rule
 * and bodies, with 0 returned; clear_user zeroes exactly [dst, dst + n). */
static void *to_user(void *dst, const void *src, size_t n)
{
	return ${P}copy_to_user(dst, src, n) == 0 ? dst : (void *)0;
}

static void *from_user(void *dst, const void *src, size_t n)
{
	return ${P}copy_from_user(dst, src, n) == 0 ? dst : (void *)0;
}

static void check_clear(struct ${P}test_ctx *t, struct detail *d, size_t n, unsigned int dst_mis)
{
	struct layout l = place(n, 2048, dst_mis, 0);
	volatile unsigned char *w = t->work, *e = t->expect;
	struct detail *why;
	size_t i;
	int ret;
	for (i = 0; i < l.end; i++)
		w[i] = e[i] = background(i);
	for (i = 0; i < n; i++)
		e[l.dst + i] = 0;
	ret = ${P}clear_user(t->work + l.dst, n);
	for (i = 0; i < l.end && w[i] == e[i]; i++)
		;
	if ((ret == 0 && i == l.end) || (why = fail(d)) == NULL)
		return;
	say(why, "clear_user n=");
	say_uint(why, n);
	say(why, ret ? ": returned nonzero" : ": wrong byte at offset ");
	if (!ret)
		say_uint(why, i);
}

static void group_user_copies(struct ${P}test_ctx *t)
{
@ if opts.target then
	static const unsigned int windows[] = {0};
@ else
	static const unsigned int windows[] = {0, 32, 4096};
@ end
	struct detail d = {{0}, 0, 0};
	struct ${P}rule rule = {0, 0, 0, "", ""};
	size_t k, n;
	for (k = 0; k < sizeof windows / sizeof windows[0]; k++) {
		rule.window = windows[k];
		${P}rule_install(&rule);
		sweep_lengths(t, &d, "copy_to_user", to_user, 1);
		sweep_lengths(t, &d, "copy_to_user", to_user, 2048);
		sweep_distances(t, &d, "copy_to_user", to_user);
		sweep_same(t, &d, "copy_to_user", to_user);
		sweep_lengths(t, &d, "copy_from_user", from_user, 1);
		sweep_lengths(t, &d, "copy_from_user", from_user, 2048);
		sweep_distances(t, &d, "copy_from_user", from_user);
		sweep_same(t, &d, "copy_from_user", from_user);
	}
	rule.window = 0;
	${P}rule_install(&rule);
	finish(t, "user_copies", "copy_to_user and copy_from_user under each window", &d);
	for (n = 0; n <= 300; n++)
		check_clear(t, &d, n, (unsigned int)(n % 64));
	for (k = 0; k < 3; k++)
		check_clear(t, &d, long_lengths[k], 5);
	finish(t, "user_copies", "clear_user", &d);
}

struct group {
	const char *name;
	void (*run)(struct ${P}test_ctx *t);
};

static const struct group groups[] = {
	{"copy_down", group_copy_down},
	{"copy_forward", group_copy_forward},
	{"user_copies", group_user_copies},
@ if not opts.target then
	{"align_head", group_align_head},
@ end
	{"fallback", group_fallback},
@ for _, e in ipairs(db.entries) do
	{"${e.name}", group_${e.name}},
@ end
	{0, 0},
};

int ${P}rule_tests_run(struct ${P}test_ctx *t, const char *only)
{
	const struct group *g;
	int run = 0;
	for (g = groups; g->name; g++) {
		if (only && !same_text(only, g->name))
			continue;
		g->run(t);
		run++;
	}
	return run;
}
