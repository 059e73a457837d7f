${banner("/*", "*/")}
@ local P = opts.prefix
@ local G = string.upper(P)
@ local layout = import("table_layout")
@ local function rule_literal(r, entry) return import("rule_c").literal(r, entry, P) end
@ local function status(r)
@   if r.status == "measured" then return "measured: " .. r.evidence end
@   if r.status == "inherited" then return "inherited from " .. r.source end
@   return "baseline (no evidence)"
@ end
#include "copy_rule.h"

#if ${G}COPY_RULE_STAMP != 0x${gen.stamp}UL
#error "copy_rule.h and copy_rule.c come from different uarchgen runs: vendor out/ as a whole"
#endif

/* Defined by the x86_64/copy.asm of the same run (see the stamp above). */
extern const unsigned char ${P}out_stamp_${gen.stamp};

/* Shaped like Linux's struct x86_cpu_id: vendor, family, model range, then
 * the rule. A null vendor ends the table; a core no row holds gets the
 * baseline, not another core's rule. */
struct cpu_match {
	const char *vendor;
	unsigned int family;
	unsigned int model_lo, model_hi;
	struct ${P}rule rule;
};

static const struct cpu_match rules[] = {
@ local ranges = {}
@ for _, e in ipairs(db.entries) do
@   for _, r in ipairs(e.ranges) do ranges[#ranges + 1] = { e = e, r = r } end
@ end
@ table.sort(ranges, function(a, b)
@   if a.e.vendor ~= b.e.vendor then return a.e.vendor < b.e.vendor end
@   if a.r.family ~= b.r.family then return a.r.family < b.r.family end
@   return a.r.model_lo < b.r.model_lo
@ end)
@ for _, x in ipairs(ranges) do
@   local rule = x.e.rules[flavor.name]
	/* ${x.e.name}: ${c_comment(x.r.source)}. Rule ${c_comment(status(rule))}. */
	{ "${x.e.vendor}", 0x${string.format("%02x", x.r.family)}, 0x${string.format("%02x", x.r.model_lo)}, 0x${string.format("%02x", x.r.model_hi)},
	  ${rule_literal(rule, x.e.name)} },
@ end
	{ 0, 0, 0, 0, ${rule_literal(lookup("", 0, 0, flavor.name), "")} },
};

/* A core no entry holds: the baseline, every copy forward. */
static const struct ${P}rule baseline = ${rule_literal(lookup("", 0, 0, flavor.name), "")};

static int same_vendor(const char *a, const char *b)
{
	int i;
	for (i = 0; i < 12; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

const struct ${P}rule *${P}rule_lookup(const char vendor[12], unsigned int family, unsigned int model)
{
	const struct cpu_match *m;
	for (m = rules; m->vendor; m++)
		if (same_vendor(m->vendor, vendor) && m->family == family &&
		    model >= m->model_lo && model <= m->model_hi)
			return &m->rule;
	return &baseline;
}

/* Display family and model as Linux's x86_family() and x86_model()
 * (arch/x86/lib/cpu.c) compute them from leaf 1 EAX. */
void ${P}cpuid_family_model(${P}u32 signature, unsigned int *family, unsigned int *model)
{
	*family = (signature >> 8) & 0xf;
	if (*family == 0xf)
		*family += (signature >> 20) & 0xff;
	*model = (signature >> 4) & 0xf;
	if (*family >= 0x6)
		*model += ((signature >> 16) & 0xf) << 4;
}

const struct ${P}rule *${P}rule_from_cpuid(const struct ${P}cpuid *id)
{
	char vendor[12];
	unsigned int i, family, model;
	for (i = 0; i < 12; i++)
		vendor[i] = (char)(id->vendor[i / 4] >> (8 * (i % 4)));
	${P}cpuid_family_model(id->signature, &family, &model);
	return ${P}rule_lookup(vendor, family, model);
}

void ${P}cpuid_leaf(${P}u32 leaf, ${P}u32 subleaf, ${P}u32 r[4])
{
	__asm__ __volatile__("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(subleaf));
}

void ${P}cpuid_read(struct ${P}cpuid *id)
{
	${P}u32 r[4];
	${P}cpuid_leaf(0, 0, r);
	id->vendor[0] = r[1];
	id->vendor[1] = r[3];
	id->vendor[2] = r[2];
	id->signature = 0;
	if (r[0] >= 1) {
		${P}cpuid_leaf(1, 0, r);
		id->signature = r[0];
	}
}

int ${P}rule_force(struct ${P}rule *rule, int strategy, unsigned int align_dst, const char *reason)
{
	static const struct {
		${P}size_t min_n, max_n;
	} lengths[${G}N_STRATEGIES] = {
#define LENGTHS(code, name, min_n, max_n, isa) [code] = {min_n, max_n},
		${G}STRATEGIES(LENGTHS)
#undef LENGTHS
	};
	static const struct ${P}rule empty;
	unsigned int c, n = 0;
	if (!${G}IS_STRATEGY(strategy))
		return -1;
	*rule = empty;
	rule->zero_mod = 4096;
	rule->align_dst = align_dst;
	rule->status = ${G}RULE_FORCED;
	rule->entry = rule->source = "";
	rule->reason = reason;
	if (lengths[strategy].min_n > 0) {
		rule->bands[n].hi = lengths[strategy].min_n - 1;
		for (c = 0; c < ${G}N_CLASSES; c++)
			rule->bands[n].strategy[c] = ${G}STRATEGY_FORWARD;
		n++;
	}
	rule->bands[n].hi = lengths[strategy].max_n;
	for (c = 0; c < ${G}N_CLASSES; c++)
		rule->bands[n].strategy[c] = (unsigned char)strategy;
	n++;
	if (lengths[strategy].max_n != (${P}size_t)-1) {
		rule->bands[n].hi = (${P}size_t)-1;
		for (c = 0; c < ${G}N_CLASSES; c++)
			rule->bands[n].strategy[c] = ${G}STRATEGY_FORWARD;
		n++;
	}
	rule->n_bands = n;
	return 0;
}

@ if target_name() then
/* Built for ${target_name()} alone: copy.asm holds the table as a branch tree. */
int ${P}rule_runs(int strategy, ${P}size_t n)
{
	(void)n;
	return strategy;
}

void ${P}rule_install(const struct ${P}rule *rule)
{
	(void)rule;
	(void)*(const volatile unsigned char *)&${P}out_stamp_${gen.stamp};
}

const struct ${P}rule *${P}rule_init(void)
{
	static const struct ${P}rule target = ${rule_literal(target_rule(target_name(), flavor.name), target_name())};
	${P}rule_install(&target);
	return &target;
}
@ else
/* The installed table, in x86_64/copy.asm: the class bounds, the head's
 * alignment, a strategy byte per class and length below SHORT, and the
 * bands that reach SHORT: their upper bounds and strategies
 * (templates/lib/table_layout.lua, which the dispatch reads too). MIXED in
 * a uniform byte: the classes differ. */
#define SHORT ${layout.short}u
#define MIXED ${layout.mixed}
extern ${P}u64 ${P}copy_zero_mask;
extern ${P}u64 ${P}copy_above_max;
extern ${P}u64 ${P}copy_near_max;
extern ${P}u64 ${P}copy_below_from;
extern ${P}u64 ${P}copy_align_dst;
extern ${P}u64 ${P}copy_long_hi[${G}MAX_BANDS - 1];
extern unsigned char ${P}copy_long_cells[${G}N_CLASSES * ${G}MAX_BANDS];
extern unsigned char ${P}copy_short[${G}N_CLASSES * SHORT];
extern unsigned char ${P}copy_uniform[SHORT];
extern unsigned char ${P}copy_long_uniform[${G}MAX_BANDS];
extern unsigned char ${P}copy_baseline;

@ local strategies = flavor_strategies()
@ local vector = flavor.isa_level > 0
@ if vector then
@   assert(#flavor.routines > 0 and (function() for _, r in ipairs(flavor.routines) do if r.name == "copy_isa" then return true end end end)(),
@          "a flavor with vector strategies must list copy_isa: the rule installs what it reports")
/* Each strategy's instruction set (0 general registers, 1 AVX2, 2
 * AVX-512), the strategy that runs in its place where that set is not
 * enabled, and the lengths it copies (common/strategies.h), by code. */
@   -- The initialisers, by code, packed into lines of up to 100 columns.
@   local function list(f)
@     local lines, line = {}, ""
@     for _, st in ipairs(strategies) do
@       local item = "[" .. G .. "STRATEGY_" .. string.upper(st.name) .. "] = " .. f(st) .. ","
@       if line ~= "" and 8 + #line + 1 + #item > 100 then lines[#lines + 1], line = line, item
@       else line = line == "" and item or line .. " " .. item end
@     end
@     lines[#lines + 1] = line
@     return "\t" .. table.concat(lines, "\n\t")
@   end
static const unsigned char strategy_isa[${G}N_STRATEGIES] = {
${list(function(st) return st.isa_level end)}
};
static const unsigned char strategy_fallback[${G}N_STRATEGIES] = {
${list(function(st) return G .. "STRATEGY_" .. string.upper(st.fallback) end)}
};
static const ${P}size_t strategy_min[${G}N_STRATEGIES] = {
${list(function(st) return st.min_n end)}
};
static const ${P}size_t strategy_max[${G}N_STRATEGIES] = {
${list(function(st) return st.max_n < 0 and "(" .. P .. "size_t)-1" or st.max_n end)}
};

/* The widest isa the installed rule may use: what ${P}copy_isa() reports, at
 * most the cap. Until ${P}rule_install, none. */
static int isa_cap = 2, installed_isa;
/* What ${P}copy_isa() reports, asked at the first install only: it runs
 * CPUID, which in a guest exits to the hypervisor (Intel SDM vol. 3C,
 * "Instructions That Cause VM Exits Unconditionally"), and the probe
 * installs a table before every point it times. -1 until asked. */
static int machine_isa = -1;

void ${P}rule_limit_isa(int isa)
{
	isa_cap = isa < 0 ? 0 : isa;
}

@ end
/* The strategy the routines run where the table says s, at length len: a
 * head needs an alignment, so without one the copy is forward; a strategy
 * whose isa is not enabled gives way to its fallback, or to forward where
 * the fallback cannot copy len bytes. */
static unsigned char runs(unsigned int s, ${P}size_t len, unsigned int align_dst)
{
	if (!${G}IS_STRATEGY(s))
		s = ${G}STRATEGY_FORWARD;
@ if vector then
	while ((int)strategy_isa[s] > installed_isa)
		s = strategy_fallback[s];
	if (len < strategy_min[s] || len > strategy_max[s])
		s = ${G}STRATEGY_FORWARD;
@ else
	(void)len;
@ end
	if (s == ${G}STRATEGY_FORWARD_ALIGNED && !align_dst)
		s = ${G}STRATEGY_FORWARD;
	return (unsigned char)s;
}

int ${P}rule_runs(int strategy, ${P}size_t n)
{
	return runs((unsigned int)strategy, n, (unsigned int)*(volatile ${P}u64 *)&${P}copy_align_dst);
}

/* The strategy of band b and class c at length len, as the routines run it. */
static unsigned char cell(const struct ${P}rule *rule, unsigned int b, unsigned int c, ${P}size_t len)
{
	return runs(rule->bands[b].strategy[c], len, rule->align_dst);
}

void ${P}rule_install(const struct ${P}rule *rule)
{
	unsigned int b, c, k, n = rule->n_bands, first_long, all_forward;
	${P}size_t len;
	(void)*(const volatile unsigned char *)&${P}out_stamp_${gen.stamp};
	if (n < 1 || n > ${G}MAX_BANDS)
		n = 1;
@ if vector then
	if (machine_isa < 0)
		machine_isa = ${P}copy_isa();
	installed_isa = machine_isa;
	if (installed_isa > isa_cap)
		installed_isa = isa_cap;
@ end
	/* d mod zero_mod = 0 is d & (zero_mod - 1) = 0; anything but a power
	 * of two up to 4096 counts as 4096: d = 0 alone. */
	*(volatile ${P}u64 *)&${P}copy_zero_mask =
		rule->zero_mod && rule->zero_mod <= 4096u && !(rule->zero_mod & (rule->zero_mod - 1)) ? rule->zero_mod - 1 : 4095u;
	*(volatile ${P}u64 *)&${P}copy_above_max = rule->above_max;
	*(volatile ${P}u64 *)&${P}copy_near_max = rule->near_max;
	*(volatile ${P}u64 *)&${P}copy_below_from = 4096u - rule->below_max;
	*(volatile ${P}u64 *)&${P}copy_align_dst = rule->align_dst;
	for (c = 0; c < ${G}N_CLASSES; c++)
		for (len = 0, b = 0; len < SHORT; len++) {
			while (b + 1 < n && len > rule->bands[b].hi)
				b++;
			((volatile unsigned char *)${P}copy_short)[c * SHORT + len] = cell(rule, b, c, len);
		}
	/* Where every class takes one strategy, the dispatch needs no distance. */
	for (len = 0; len < SHORT; len++) {
		unsigned char s = ${P}copy_short[len];
		for (c = 1; c < ${G}N_CLASSES; c++)
			if (${P}copy_short[c * SHORT + len] != s)
				s = MIXED;
		((volatile unsigned char *)${P}copy_uniform)[len] = s;
	}
	for (first_long = 0; first_long + 1 < n && rule->bands[first_long].hi < SHORT; first_long++)
		;
	for (k = 0; k < ${G}MAX_BANDS; k++) {
		b = first_long + k < n ? first_long + k : n - 1;
		if (k + 1 < ${G}MAX_BANDS)
			((volatile ${P}u64 *)${P}copy_long_hi)[k] =
				first_long + k + 1 < n ? (${P}u64)rule->bands[b].hi : ~(${P}u64)0;
		for (c = 0; c < ${G}N_CLASSES; c++)
			((volatile unsigned char *)${P}copy_long_cells)[c * ${G}MAX_BANDS + k] = cell(rule, b, c, SHORT);
	}
	for (k = 0; k < ${G}MAX_BANDS; k++) {
		unsigned char s = ${P}copy_long_cells[k];
		for (c = 1; c < ${G}N_CLASSES; c++)
			if (${P}copy_long_cells[c * ${G}MAX_BANDS + k] != s)
				s = MIXED;
		((volatile unsigned char *)${P}copy_long_uniform)[k] = s;
	}
	/* Every copy forward: the dispatch skips the table, unless the table
	 * was forced (${P}rule_force). Forward is right for every copy, so a
	 * copy that reads the flag and the table while they change still
	 * copies right. */
	for (all_forward = 1, len = 0; len < SHORT; len++)
		all_forward &= ${P}copy_uniform[len] == ${G}STRATEGY_FORWARD;
	for (k = 0; k < ${G}MAX_BANDS; k++)
		all_forward &= ${P}copy_long_uniform[k] == ${G}STRATEGY_FORWARD;
	*(volatile unsigned char *)&${P}copy_baseline = (unsigned char)(all_forward && rule->status != ${G}RULE_FORCED);
}

const struct ${P}rule *${P}rule_init(void)
{
	struct ${P}cpuid id;
	const struct ${P}rule *rule;
	${P}cpuid_read(&id);
	rule = ${P}rule_from_cpuid(&id);
	${P}rule_install(rule);
	return rule;
}
@ end

struct text {
	char *buf;
	${P}size_t size, len;
};

static void put(struct text *t, const char *s)
{
	for (; *s; s++, t->len++)
		if (t->len + 1 < t->size)
			t->buf[t->len] = *s;
}

static void put_size(struct text *t, ${P}size_t v)
{
	char digits[24];
	int n = 0;
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0) {
		char one[2];
		one[0] = digits[--n];
		one[1] = '\0';
		put(t, one);
	}
}

@ -- Each code's letter, '?' where a code is not one of this flavor's.
@ local letters, by_code = {}, {}
@ for _, st in ipairs(flavor_strategies()) do by_code[st.code] = st.letter end
@ for code = 0, flavor_strategies()[#flavor_strategies()].code do letters[#letters + 1] = by_code[code] or "?" end
${P}size_t ${P}rule_describe(char *buf, ${P}size_t size, const struct ${P}rule *rule)
{
	static const char letter[${G}N_STRATEGIES + 1] = "${table.concat(letters)}";
	struct text t;
	unsigned int b, c;
	${P}size_t lo = 0;
	t.buf = buf;
	t.size = size;
	t.len = 0;
	put(&t, "memcpy: Rule { above_max: ");
	put_size(&t, rule->above_max);
	if (rule->near_max) {
		put(&t, ", near_max: ");
		put_size(&t, rule->near_max);
	}
	put(&t, ", below_max: ");
	put_size(&t, rule->below_max);
	if (rule->zero_mod && rule->zero_mod < 4096u) {
		put(&t, ", zero_mod: ");
		put_size(&t, rule->zero_mod);
	}
	put(&t, ", align_dst: ");
	put_size(&t, rule->align_dst);
	put(&t, ", bands: [");
	for (b = 0; b < rule->n_bands && b < ${G}MAX_BANDS; b++) {
		put(&t, b ? ", " : "");
		put_size(&t, lo);
		put(&t, "..");
		if (rule->bands[b].hi != (${P}size_t)-1)
			put_size(&t, rule->bands[b].hi);
		put(&t, " ");
		for (c = 0; c < ${G}N_CLASSES; c++) {
			char one[2];
			unsigned int s = rule->bands[b].strategy[c];
			one[0] = ${G}IS_STRATEGY(s) ? letter[s] : '?';
			one[1] = '\0';
			put(&t, one);
		}
		lo = rule->bands[b].hi + 1;
	}
	put(&t, "] } (");
	put(&t, rule->entry[0] ? rule->entry : "no entry for this CPU");
	if (rule->status == ${G}RULE_MEASURED) {
		put(&t, ", measured");
	} else if (rule->status == ${G}RULE_INHERITED) {
		put(&t, ", inherited from ");
		put(&t, rule->source);
	} else if (rule->status == ${G}RULE_FORCED) {
		put(&t, ", forced: ");
		put(&t, rule->reason);
	} else {
		put(&t, ", baseline: no evidence");
	}
	put(&t, ")");
	if (size)
		buf[t.len < size ? t.len : size - 1] = '\0';
	return t.len;
}
