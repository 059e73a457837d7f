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
@ local rule_c = import("rule_c")
@ local function code_of(name)
@   for _, st in ipairs(db.strategies) do if st.name == name then return st.code end end
@ end
@ local function case(vendor, family, model)
@   local r = lookup(vendor, family, model, flavor.name)
@   local s = sig(family, model)
@   return string.format('{ "%s", { %s }, 0x%02x, 0x%02x, 0x%08xu, %d, %s }',
@     vendor, vendor_words(vendor), family, model, s or 0, s and 1 or 0, rule_c.literal(r, r.entry, P))
@ end
@ -- Every band edge and class edge of a table, with the strategy it gives.
@ local function edges(r)
@   local ns, ds, seen = {}, {}, {}
@   -- Every band edge, however long: the strategy check reads no byte, and
@   -- the copies stop at COPY_EDGE_MAX (rule_checks.c.tpi).
@   local function n_at(n) if n >= 0 and not seen["n" .. n] then seen["n" .. n] = true; ns[#ns + 1] = n end end
@   local function d_at(d) if d >= 0 and d <= 4095 and not seen["d" .. d] then seen["d" .. d] = true; ds[#ds + 1] = d end end
@   -- 255 and 256: where the dispatch's per-length bytes end and its band list begins.
@   for _, n in ipairs({ 0, 1, 7, 8, 31, 32, 33, 63, 64, 65, 255, 256, 300, 4096, 65536 }) do n_at(n) end
@   for _, b in ipairs(r.bands) do
@     n_at(b.lo - 1); n_at(b.lo); n_at(b.lo + 1)
@     if b.hi >= 0 then n_at(b.hi - 1); n_at(b.hi); n_at(b.hi + 1) end
@   end
@   for _, d in ipairs({ 0, 1, 2, 1023, 2048, 4095 }) do d_at(d) end
@   d_at(r.above_max); d_at(r.above_max + 1)
@   if r.near_max > 0 then d_at(r.near_max); d_at(r.near_max + 1) end
@   d_at(4096 - r.below_max - 1); d_at(4096 - r.below_max)
@   if r.zero_mod < 4096 then
@     d_at(r.zero_mod - 1); d_at(r.zero_mod); d_at(r.zero_mod + 1); d_at(4096 - r.zero_mod); d_at(4096 - r.zero_mod + 1)
@   end
@   table.sort(ns); table.sort(ds)
@   local out = {}
@   for _, n in ipairs(ns) do
@     for _, d in ipairs(ds) do
@       out[#out + 1] = string.format("{ %d, %d, %d }", n, d, (rule_c.choice(r, n, d)))
@     end
@   end
@   return out
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
	unsigned int i, c;
	if (a->above_max != b->above_max || a->near_max != b->near_max || a->below_max != b->below_max ||
	    a->align_dst != b->align_dst ||
	    a->n_bands != b->n_bands || a->status != b->status || !same_text(a->entry, b->entry) ||
	    !same_text(a->source, b->source) || !same_text(a->reason, b->reason))
		return 0;
	for (i = 0; i < a->n_bands && i < ${G}MAX_BANDS; i++) {
		if (a->bands[i].hi != b->bands[i].hi)
			return 0;
		for (c = 0; c < ${G}N_CLASSES; c++)
			if (a->bands[i].strategy[c] != b->bands[i].strategy[c])
				return 0;
	}
	return 1;
}

static void say_case(struct detail *why, const struct lookup_case *c, const struct ${P}rule *got)
{
	say(why, c->vendor);
	say(why, " family ");
	say_uint(why, c->family);
	say(why, " model ");
	say_uint(why, c->model);
	say(why, ": got a table of ");
	say_uint(why, got->n_bands);
	say(why, " bands, above_max ");
	say_uint(why, got->above_max);
	say(why, ", near_max ");
	say_uint(why, got->near_max);
	say(why, ", status ");
	say_uint(why, (unsigned long)got->status);
	say(why, ", entry '");
	say(why, got->entry);
	say(why, "' source '");
	say(why, got->source);
	say(why, "'; want ");
	say_uint(why, c->want.n_bands);
	say(why, " bands, above_max ");
	say_uint(why, c->want.above_max);
	say(why, ", near_max ");
	say_uint(why, c->want.near_max);
	say(why, ", status ");
	say_uint(why, (unsigned long)c->want.status);
	say(why, ", entry '");
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
 * just outside them, then, under the rule the lookup gives, the table's
 * edges and the copy sweeps. */
static void run_entry(struct ${P}test_ctx *t, const char *group, const struct lookup_case *cases, size_t n_cases,
		      const struct edge *edges, size_t n_edges, int sweeps)
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
	check_edges(t, &d, edges, n_edges);
	finish(t, group, "strategy at every band and class edge", &d);
	copy_edges(t, &d, edges, n_edges);
	finish(t, group, "copy at every band and class edge", &d);
	sweep_lengths(t, &d, "memcpy", ${P}memcpy, 1);
	sweep_lengths(t, &d, "memcpy", ${P}memcpy, 2048);
	if (own->want.above_max > 0) {
		sweep_lengths(t, &d, "memcpy", ${P}memcpy, own->want.above_max);
		sweep_lengths(t, &d, "memcpy", ${P}memcpy, own->want.above_max + 1);
	}
	if (own->want.near_max > 0) {
		sweep_lengths(t, &d, "memcpy", ${P}memcpy, own->want.near_max);
		sweep_lengths(t, &d, "memcpy", ${P}memcpy, own->want.near_max + 1);
	}
	if (own->want.below_max > 0) {
		sweep_lengths(t, &d, "memcpy", ${P}memcpy, 4096 - own->want.below_max);
		sweep_lengths(t, &d, "memcpy", ${P}memcpy, 4095 - own->want.below_max);
	}
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
/* ${e.name}: ${c_comment(rule_status_text(r))}. */
static const struct edge edges_${e.name}[] = {
@   for _, x in ipairs(edges(r)) do
	${x},
@   end
};

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
	run_entry(t, "${e.name}", cases_${e.name}, sizeof cases_${e.name} / sizeof cases_${e.name}[0], edges_${e.name},
		  sizeof edges_${e.name} / sizeof edges_${e.name}[0], ${(not target_name() or target_name() == e.name) and 1 or 0});
}

@ end
/* Cores no entry names, of a vendor the database knows or not: the
 * baseline, never another core's table. */
static const struct lookup_case cases_fallback[] = {
	${case("AuthenticAMD", 0x0f, 0x01)},
	${case("AuthenticAMD", 0x05, 0x04)},
	${case("GenuineIntel", 0x0f, 0x01)},
	${case("GenuineIntel", 0x05, 0x04)},
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
 * outside the classes near the source. */
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

/* Strategy small on its own: every length it serves, every destination
 * alignment within a word, disjoint and overlapping either way, since it
 * loads everything before it stores. */
static void group_copy_small(struct ${P}test_ctx *t)
{
	static const unsigned int distances[] = {1, 31, 2051, 4095};
	struct detail d = {{0}, 0, 0};
	unsigned int m;
	size_t n, k;
	for (n = 0; n <= 32; n++)
		for (m = 0; m < 8; m++)
			for (k = 0; k < 4; k++)
				check_copy(t, &d, "copy_small", ${P}copy_small, n, distances[k], m, 0);
	finish(t, "copy_small", "every length and alignment", &d);
	for (n = 0; n <= 32; n++)
		check_copy(t, &d, "copy_small", ${P}copy_small, n, 0, (unsigned int)(n % 64), 1);
	finish(t, "copy_small", "dst == src", &d);
	for (n = 0; n <= 32; n++)
		for (k = 1; k < n; k++) {
			check_overlap(t, &d, "copy_small", ${P}copy_small, n, k, 0);
			check_overlap(t, &d, "copy_small", ${P}copy_small, n, k, 1);
		}
	finish(t, "copy_small", "every overlap, either way", &d);
}

@ local has = {}
@ for _, r in ipairs(flavor.routines) do has[r.name] = r end
@ local vector_routines = {}
@ for _, st in ipairs(flavor_strategies()) do
@   if st.isa_level > 0 and has["copy_" .. st.name] then vector_routines[#vector_routines + 1] = st end
@ end
@ -- The direction a strategy copies safely is that of the general-register
@ -- strategy its fallbacks end in: the catalogue says it, not the name.
@ local function gpr_of(st)
@   local by = {}
@   for _, s in ipairs(db.strategies) do by[s.name] = s end
@   while st.isa_level > 0 do st = by[st.fallback] end
@   return st.name
@ end
@ for _, st in ipairs(vector_routines) do
@   local name = "copy_" .. st.name
@   local hi = st.max_n < 0 and 300 or st.max_n
@   local base = gpr_of(st)
@   local up = base ~= "down"
@   local down = base == "down" or base == "small"
/* Strategy ${st.name} on its own, where this CPU and its OS enable it: every
 * length from ${st.min_n} to ${hi}${st.max_n < 0 and " and long ones" or ""}, destination alignments across a
 * vector, disjoint, and overlapping in the direction it copies safely. */
static void group_${name}(struct ${P}test_ctx *t)
{
	static const unsigned int distances[] = {1, 31, 2051, 4095};
	struct detail d = {{0}, 0, 0};
	unsigned int m;
	size_t n, k;
	if (${P}copy_isa() < ${st.isa_level})
		return; /* not run: the CPU or the OS lacks ${st.isa} */
	for (n = ${st.min_n}; n <= ${hi}; n++)
		for (m = 0; m < 64; m += 7)
			for (k = 0; k < 4; k++)
				check_copy(t, &d, "${name}", ${P}${name}, n, distances[k], m, 0);
@   if st.max_n < 0 then
	for (k = 0; k < 3; k++)
		for (m = 0; m < 64; m += 13)
			check_copy(t, &d, "${name}", ${P}${name}, long_lengths[k], 17, m, 0);
@   end
	finish(t, "${name}", "every length and alignment", &d);
	for (n = ${st.min_n}; n <= ${hi}; n++)
		check_copy(t, &d, "${name}", ${P}${name}, n, 0, (unsigned int)(n % 64), 1);
	finish(t, "${name}", "dst == src", &d);
	for (n = ${st.min_n}; n <= ${hi}; n++)
		for (k = 1; k < n && k <= 130; k++) {
@   if up then
			check_overlap(t, &d, "${name}", ${P}${name}, n, k, 1);
@   end
@   if down then
			check_overlap(t, &d, "${name}", ${P}${name}, n, k, 0);
@   end
		}
	finish(t, "${name}", "${up and down and "every overlap, either way" or up and "overlaps with the destination below" or "overlaps with the destination above"}", &d);
}

@ end
@ if not target_name() then
@ -- Tables no entry holds, so that every class, class bound and band bound of
@ -- the dispatch is tested whatever the database measures: one with every
@ -- band the dispatch can hold, one with the classes distinct, one whose above
@ -- and below classes fill the circle but for d = 2048, one alike in every
@ -- class, band by band, but for a near class past an above class that
@ -- copies as elsewhere does, and the baseline.
@ local function B(lo, hi, z, a, n, b, e) return { lo = lo, hi = hi, zero = z, above = a, near = n, below = b, elsewhere = e } end
@ local synthetic = {
@   -- zero_mod 32 inside the below range: 4064 and 4032 are zero, not below;
@   -- 64 is zero, not near.
@   { status = "baseline", above_max = 31, near_max = 90, below_max = 64, zero_mod = 32, align_dst = 32, bands = {
@       B(0, 7, "small", "small", "forward", "forward", "small"),
@       B(8, 32, "small", "down", "forward", "down", "forward"),
@       B(33, 63, "forward", "down", "down", "forward", "forward"),
@       B(64, 1023, "forward_aligned", "down", "forward", "down", "forward"),
@       B(1024, 4095, "forward", "forward", "forward_aligned", "down", "forward_aligned"),
@       B(4096, -1, "down", "forward", "down", "forward_aligned", "forward") } },
@   { status = "baseline", above_max = 2047, near_max = 0, below_max = 2047, zero_mod = 4096, align_dst = 8, bands = {
@       B(0, 32, "forward", "small", "small", "forward", "small"),
@       B(33, -1, "forward", "down", "forward", "forward_aligned", "forward") } },
@   -- Every class alike in each band: the dispatch's uniform shortcut for
@   -- each strategy, and a class test only where a band is not uniform.
@   { status = "baseline", above_max = 100, near_max = 200, below_max = 100, zero_mod = 4096, align_dst = 16, bands = {
@       B(0, 7, "forward", "forward", "forward", "forward", "forward"),
@       B(8, 20, "down", "down", "down", "down", "down"),
@       B(21, 32, "small", "small", "small", "small", "small"),
@       B(33, 127, "down", "down", "down", "down", "down"),
@       B(128, 255, "forward_aligned", "forward_aligned", "forward_aligned", "forward_aligned", "forward_aligned"),
@       B(256, -1, "down", "forward", "down", "down", "forward") } },
@   lookup("", 0, 0, flavor.name),
@ }
@ -- As many bands as a table holds, all but the first reaching past 255
@ -- bytes, so that every slot of the long bands' chain ends a band; the
@ -- strategies change from each band to the next in every class.
@ do
@   local bands = { B(0, 255, "forward", "forward", "forward", "forward", "forward") }
@   for k = 2, db.max_bands do
@     local lo, even = bands[#bands].hi + 1, k % 2 == 0
@     bands[#bands + 1] = B(lo, k == db.max_bands and -1 or lo + 64 * k - 1, even and "down" or "forward",
@                           even and "down" or "forward_aligned", even and "forward_aligned" or "down",
@                           even and "down" or "forward_aligned", even and "forward_aligned" or "forward")
@   end
@   table.insert(synthetic, 1, { status = "baseline", above_max = 40, near_max = 120, below_max = 16, zero_mod = 64,
@                                align_dst = 16, bands = bands })
@ end
@ if flavor.isa_level > 0 then
@   -- The vector strategies in every class and band kind: where this CPU
@   -- lacks one, its fallback runs, which the edges check as well.
@   table.insert(synthetic, 1, { status = "baseline", above_max = 31, near_max = 95, below_max = 64, zero_mod = 4096, align_dst = 0, bands = {
@       B(0, 31, "avx2_small", "small", "avx2_small", "avx2_small", "avx2_small"),
@       B(32, 63, "avx2_small", "avx2_down", "avx2_down", "forward", "avx2_forward"),
@       B(64, 256, "avx512_forward", "avx2_small", "forward", "avx512_down", "avx2_small"),
@       B(257, 1023, "avx512_forward", "avx2_down", "forward", "avx512_down", "avx2_forward"),
@       B(1024, -1, "avx512_down", "avx512_down", "avx2_nt", "forward", "avx512_forward") } })
@ end
/* The dispatch under tables no entry holds: the strategy and the copy at
 * every band and class edge. */
@ for i, r in ipairs(synthetic) do
static const struct ${P}rule synthetic_${i} = ${rule_c.literal(r, "", P)};
static const struct edge synthetic_edges_${i}[] = {
@   for _, x in ipairs(edges(r)) do
	${x},
@   end
};
@ end

/* Set by rule_install where every copy goes forward: the dispatch then
 * skips the table. */
extern unsigned char ${P}copy_baseline;
@ -- Whether every class of every band of r copies forward (forward_aligned
@ -- without an alignment is forward): the tables here that do, do so on
@ -- every CPU, and the others name small or down somewhere.
@ local function copies_forward(r)
@   for _, b in ipairs(r.bands) do
@     for _, c in ipairs(db.classes) do
@       if b[c] ~= "forward" and not (b[c] == "forward_aligned" and r.align_dst == 0) then return false end
@     end
@   end
@   return true
@ end

static void group_dispatch(struct ${P}test_ctx *t)
{
	struct detail d = {{0}, 0, 0};
	struct detail *why;
@ for i, r in ipairs(synthetic) do
	${P}rule_install(&synthetic_${i});
	check_edges(t, &d, synthetic_edges_${i}, sizeof synthetic_edges_${i} / sizeof synthetic_edges_${i}[0]);
	finish(t, "dispatch", "table ${i}: strategy at every band and class edge", &d);
	copy_edges(t, &d, synthetic_edges_${i}, sizeof synthetic_edges_${i} / sizeof synthetic_edges_${i}[0]);
	finish(t, "dispatch", "table ${i}: copy at every band and class edge", &d);
@   local forward = copies_forward(r)
	if (${forward and "!" or ""}*(volatile unsigned char *)&${P}copy_baseline && (why = fail(&d)) != NULL)
		say(why, "${forward and "every copy forward, and the dispatch still reads the table" or "marked as copying forward everywhere"}");
	finish(t, "dispatch", "table ${i}: ${forward and "every copy forward: the dispatch skips the table" or "the dispatch reads it"}", &d);
@ end
	${P}rule_install(&baseline_table);
}

/* The alignment head of the forward path, under each align_dst a rule may
 * hold, whether or not an entry measures one yet. */
static void group_align_head(struct ${P}test_ctx *t)
{
@ local heads = {}
@ for _, a in ipairs(db.align_dst_values) do if a > 0 then heads[#heads + 1] = a end end
	static const unsigned int aligns[] = {${table.concat(heads, ", ")}};
	struct detail d = {{0}, 0, 0};
	/* A table that takes forward_aligned everywhere it may (n >= 64). */
	struct ${P}rule rule = ${"{ 0, 0, 0, 4096, 0, 2, { { 63, { 0, 0, 0, 0, 0 } }, { (" .. P .. "size_t)-1, { " .. string.rep(tostring(code_of("forward_aligned")) .. ", ", #db.classes - 1) .. code_of("forward_aligned") .. " } } }, " .. G .. "RULE_BASELINE, \"\", \"\", \"\" }"};
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
	${P}rule_install(&baseline_table);
}

@   if flavor.isa_level > 0 then
/* The fallbacks: with the isa capped at each level this CPU has (and so
 * with AVX-512, then AVX2, taken away), the table of vector strategies
 * installs; at each of its edges memcpy takes a strategy of that isa or
 * less, and copies correctly. */
static const unsigned char isa_of[${G}N_STRATEGIES] = { ${(function() local t = {} for _, st in ipairs(flavor_strategies()) do t[#t + 1] = "[" .. st.code .. "] = " .. st.isa_level end return table.concat(t, ", ") end)()} };

static void group_isa_cap(struct ${P}test_ctx *t)
{
	struct detail d = {{0}, 0, 0};
	int cap, top = ${P}copy_isa();
	size_t i;
	for (cap = 0; cap <= top; cap++) {
		${P}rule_limit_isa(cap);
		${P}rule_install(&synthetic_1);
		for (i = 0; i < sizeof synthetic_edges_1 / sizeof synthetic_edges_1[0]; i++) {
			const struct edge *e = &synthetic_edges_1[i];
			int got = strategy_at(t, e->n, e->dist);
			struct detail *why;
			if ((!${G}IS_STRATEGY(got) || isa_of[got] > cap) && (why = fail(&d)) != NULL) {
				say(why, "isa capped at ");
				say_uint(why, (unsigned long)cap);
				say(why, ": n=");
				say_uint(why, e->n);
				say(why, " d=");
				say_uint(why, e->dist);
				say(why, " takes strategy ");
				say_uint(why, (unsigned long)got);
			}
		}
		finish(t, "isa_cap", cap == 0 ? "no vector isa: the general-register fallbacks"
				  : cap == 1 ? "AVX2, no AVX-512: the AVX2 fallbacks" : "AVX-512", &d);
		copy_edges(t, &d, synthetic_edges_1, sizeof synthetic_edges_1 / sizeof synthetic_edges_1[0]);
		finish(t, "isa_cap", "the fallbacks copy correctly at every edge", &d);
	}
	${P}rule_limit_isa(2);
	${P}rule_install(&baseline_table);
}

@   end
@   if has.memmove then
/* memmove under each table the dispatch tests use and the baseline: every
 * length to 300 and long ones, disjoint at distances in every class, and
 * overlapping either way by every shift up to 130 bytes. */
static void group_memmove(struct ${P}test_ctx *t)
{
	static const unsigned int distances[] = {0, 1, 31, 64, 2051, 4032, 4095};
	static const struct ${P}rule *const tables[] = {
@     for i, _ in ipairs(synthetic) do
		&synthetic_${i},
@     end
	};
	struct detail d = {{0}, 0, 0};
	size_t i, n, k;
	for (i = 0; i < sizeof tables / sizeof tables[0]; i++) {
		${P}rule_install(tables[i]);
		for (k = 0; k < sizeof distances / sizeof distances[0]; k++)
			sweep_lengths(t, &d, "memmove", ${P}memmove, distances[k]);
		sweep_same(t, &d, "memmove", ${P}memmove);
		finish(t, "memmove", "disjoint, every class", &d);
		for (n = 0; n <= 300; n++)
			for (k = 1; k < n && k <= 130; k++) {
				check_overlap(t, &d, "memmove", ${P}memmove, n, k, 0);
				check_overlap(t, &d, "memmove", ${P}memmove, n, k, 1);
			}
		for (k = 0; k < 3; k++) {
			check_overlap(t, &d, "memmove", ${P}memmove, long_lengths[k], 1, 0);
			check_overlap(t, &d, "memmove", ${P}memmove, long_lengths[k], 1, 1);
			check_overlap(t, &d, "memmove", ${P}memmove, long_lengths[k], 100, 0);
			check_overlap(t, &d, "memmove", ${P}memmove, long_lengths[k], 4095, 1);
		}
		finish(t, "memmove", "every overlap, either way", &d);
	}
	${P}rule_install(&baseline_table);
}

@   end
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
	{"copy_small", group_copy_small},
@ if has_user_copies then
	{"user_copies", group_user_copies},
@ end
@ for _, st in ipairs(vector_routines) do
	{"copy_${st.name}", group_copy_${st.name}},
@ end
@ if not target_name() then
	{"align_head", group_align_head},
	{"dispatch", group_dispatch},
@   if has.memmove then
	{"memmove", group_memmove},
@   end
@   if flavor.isa_level > 0 then
	{"isa_cap", group_isa_cap},
@   end
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
