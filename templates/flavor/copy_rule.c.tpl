${banner("/*", "*/")}
@ local P = opts.prefix
@ local G = string.upper(P)
@ local function rule_literal(r, entry)
@   return string.format('{ %d, %d, %d, "%s", "%s" }', r.window, r.align_dst, r.measured and 1 or 0, entry, r.window_from or "")
@ end
@ local function status(r)
@   if r.measured then return "measured: " .. r.evidence end
@   if r.window_from then return "unmeasured, takes " .. r.window_from .. "'s" end
@   return "unmeasured, window 0"
@ end
#include "copy_rule.h"

#if ${G}COPY_RULE_STAMP != 0x${gen.stamp}UL
#error "copy_rule.h and copy_rule.c come from different uarchgen runs: vendor out/ as a whole"
#endif

/* Defined by the x86_64/copy.asm of the same run (see the stamp above). */
extern const unsigned char ${P}out_stamp_${gen.stamp};

#define ANY_FAMILY 0xffffu

/* Shaped like Linux's struct x86_cpu_id: vendor, family, model range, then
 * the rule. Rows for one core come before the vendor defaults, and a NULL
 * vendor ends the table. */
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
	/* ${x.e.name}: ${x.r.source}. Rule ${status(rule)}. */
	{ "${x.e.vendor}", 0x${string.format("%02x", x.r.family)}, 0x${string.format("%02x", x.r.model_lo)}, 0x${string.format("%02x", x.r.model_hi)}, ${rule_literal(rule, x.e.name)} },
@ end
	/* Vendor defaults: every other core of the vendor takes this measured entry's rule, unmeasured. */
@ for _, d in ipairs(db.defaults) do
@   if d.flavor == flavor.name then
	{ "${d.vendor}", ANY_FAMILY, 0x00, 0xff, ${rule_literal({ window = d.window, align_dst = d.align_dst, measured = false, window_from = d.entry }, "")} },
@   end
@ end
	{ NULL, 0, 0, 0, { 0, 0, 0, "", "" } },
};

/* Any other vendor: window 0, every copy one forward rep movsb. */
static const struct ${P}rule unknown_vendor = { 0, 0, 0, "", "" };

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
		if (same_vendor(m->vendor, vendor) && (m->family == ANY_FAMILY || m->family == family) &&
		    model >= m->model_lo && model <= m->model_hi)
			return &m->rule;
	return &unknown_vendor;
}

/* Display family and model as Linux's x86_family() and x86_model()
 * (arch/x86/lib/cpu.c) compute them from leaf 1 EAX. */
void ${P}cpuid_family_model(uint32_t signature, unsigned int *family, unsigned int *model)
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

void ${P}cpuid_leaf(uint32_t leaf, uint32_t subleaf, uint32_t r[4])
{
	__asm__ __volatile__("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(subleaf));
}

void ${P}cpuid_read(struct ${P}cpuid *id)
{
	uint32_t r[4];
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

@ if opts.target then
/* Built for ${opts.target} alone: copy.asm holds the rule as immediates. */
void ${P}rule_install(const struct ${P}rule *rule)
{
	(void)rule;
	(void)*(const volatile unsigned char *)&${P}out_stamp_${gen.stamp};
}

const struct ${P}rule *${P}rule_init(void)
{
	static const struct ${P}rule target = ${rule_literal(target_rule(opts.target, flavor.name), opts.target)};
	${P}rule_install(&target);
	return &target;
}
@ else
extern uint64_t ${P}copy_window;
extern uint64_t ${P}copy_align_dst;

void ${P}rule_install(const struct ${P}rule *rule)
{
	(void)*(const volatile unsigned char *)&${P}out_stamp_${gen.stamp};
	*(volatile uint64_t *)&${P}copy_window = rule->window;
	*(volatile uint64_t *)&${P}copy_align_dst = rule->align_dst;
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
	size_t size, len;
};

static void put(struct text *t, const char *s)
{
	for (; *s; s++, t->len++)
		if (t->len + 1 < t->size)
			t->buf[t->len] = *s;
}

static void put_uint(struct text *t, unsigned int v)
{
	char digits[12];
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

size_t ${P}rule_describe(char *buf, size_t size, const struct ${P}rule *rule)
{
	struct text t;
	t.buf = buf;
	t.size = size;
	t.len = 0;
	put(&t, "memcpy: highest first Rule { window: ");
	put_uint(&t, rule->window);
	if (rule->align_dst) {
		put(&t, ", align_dst: ");
		put_uint(&t, rule->align_dst);
	}
	put(&t, " } (");
	put(&t, rule->entry[0] ? rule->entry : "no entry for this CPU");
	if (rule->measured) {
		put(&t, ", measured");
	} else if (rule->source[0]) {
		put(&t, ", extrapolated from ");
		put(&t, rule->source);
	} else {
		put(&t, ", unknown vendor: default");
	}
	put(&t, ")");
	if (size)
		buf[t.len < size ? t.len : size - 1] = '\0';
	return t.len;
}
