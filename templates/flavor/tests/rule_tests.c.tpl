${banner("/*", "*/")}
@ local P = opts.prefix
@ local G = string.upper(P)
@ local has_user_copies = false
@ for _, r in ipairs(flavor.routines) do has_user_copies = has_user_copies or r.access end
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
@   local r = lookup(vendor, family, model, flavor.name)
@   local s = sig(family, model)
@   return string.format('{ "%s", { %s }, 0x%02x, 0x%02x, 0x%08xu, %d, { %d, %d, %d, "%s", "%s" } }',
@     vendor, vendor_words(vendor), family, model, s or 0, s and 1 or 0,
@     r.window, r.align_dst, r.measured and 1 or 0, r.entry or "", r.window_from or "")
@ end
#include "rule_tests.h"

#include "../copy_rule.h"

#include <stdint.h>

${include("rule_checks.c.tpi")}

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
@   local r = e.rules[flavor.name]
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
@   if d.flavor == flavor.name then
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
@ local heads = {}
@ for _, a in ipairs(db.align_dst_values) do if a > 0 then heads[#heads + 1] = a end end
	static const unsigned int aligns[] = {${table.concat(heads, ", ")}};
	struct detail d = {{0}, 0, 0};
	struct ${P}rule rule = {0, 0, 0, "", ""};
	size_t n, k;
	unsigned int m;
	for (k = 0; k < sizeof aligns / sizeof aligns[0]; k++) {
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
@ if has_user_copies then
${include("user_copy_groups.c.tpi")}

@ end
struct group {
	const char *name;
	void (*run)(struct ${P}test_ctx *t);
};

static const struct group groups[] = {
	{"copy_down", group_copy_down},
	{"copy_forward", group_copy_forward},
@ if has_user_copies then
	{"user_copies", group_user_copies},
@ end
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
