/* Every strategy of the flavor that this CPU runs, forced in turn: each
 * copies every length from its shortest to 520 bytes and some long ones,
 * disjoint at source and destination misalignments and overlapping either
 * way, through memcpy and memmove. A copy must be right, touch nothing
 * outside its destination, return dst, be the forced strategy's own (not a
 * fallback), and, where the CPU tracks XINUSE, leave no upper vector state
 * in use. This is how the AVX-512 routines run where no machine at hand has
 * AVX-512: under an emulator that has it (run.sh boots Bochs). */
#include "strategies.h"

#include "vendor/copy_rule.h"

static void say(char *buf, uc_size_t size, const char *s);

#define ROW(code, name, min_n, max_n, isa) {code, name, min_n, max_n, isa},
static const struct {
	int code;
	const char *name;
	uc_size_t min_n, max_n;
	int isa;
} strategies[] = {UC_STRATEGIES(ROW)};
#undef ROW

/* XINUSE bits of the upper vector state: 2 the upper halves of ymm0-15, 6
 * and 7 the upper halves of zmm0-15 and zmm16-31 (Intel SDM vol. 1, 13.6).
 * A routine that touched ymm or zmm0-15 must end with vzeroupper; one that
 * touched zmm16-31 must clear it as well. The opmasks (bit 5) are
 * call-clobbered, as the ABI harness says: not judged. */
#define UPPER_STATE ((1u << 2) | (1u << 6) | (1u << 7))

static void cpuid(unsigned int leaf, unsigned int sub, unsigned int r[4])
{
	__asm__ __volatile__("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

static unsigned int xgetbv(unsigned int which)
{
	unsigned int lo, hi;
	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(which));
	return lo;
}

/* The upper vector state XCR0 enables: what xstate_reset initialises. */
static unsigned int upper_enabled;
/* The XRSTOR area: its header (XSTATE_BV, XCOMP_BV, the reserved bytes)
 * stays zero, so every requested component is initialised (SDM vol. 1,
 * 13.8.1); the legacy region's MXCSR is written first. */
static unsigned char reset_area[1024] __attribute__((aligned(64)));

/* Brings the upper vector state to its initial configuration, so that
 * XINUSE afterwards tells what the next routine adds. */
static void xstate_reset(void)
{
	__asm__ __volatile__("stmxcsr 24(%0)\n\txrstor (%0)"
			     :
			     : "r"(reset_area), "a"(upper_enabled), "d"(0)
			     : "memory");
}

/* 1 when XINUSE can be checked: XGETBV with ECX = 1 needs OSXSAVE and
 * CPUID.(EAX=0DH,ECX=1):EAX[2], and the CPU must track the state, which
 * QEMU's TCG does not (it reports every enabled state in use): right after
 * the reset, none of the upper state may read in use. */
static int xinuse_tracked(const char **why)
{
	unsigned int r[4];
	*why = "xinuse: not reported by this CPU\n";
	cpuid(0, 0, r);
	if (r[0] < 0xd)
		return 0;
	cpuid(1, 0, r);
	if (!(r[2] & (1u << 27)) || !(r[2] & (1u << 28))) /* OSXSAVE, AVX */
		return 0;
	cpuid(0xd, 1, r);
	if (!((r[0] >> 2) & 1))
		return 0;
	upper_enabled = xgetbv(0) & UPPER_STATE;
	xstate_reset();
	*why = "xinuse: reported but not tracked (upper state in use after the reset); not checked\n";
	if (xgetbv(1) & UPPER_STATE)
		return 0;
	*why = "xinuse: checked\n";
	return 1;
}

/* Routines that leave each kind of upper state in use, to prove the check
 * sees them: vzeroupper does not clear zmm16-31. */
static void dirty_ymm(void)
{
	__asm__ __volatile__("vpcmpeqd %%ymm1, %%ymm1, %%ymm1" ::: "memory");
}
static void dirty_zmm16(void)
{
	__asm__ __volatile__("vpternlogd $0xff, %%zmm16, %%zmm16, %%zmm16\n\tvzeroupper" ::: "memory");
}

/* The negative controls of the XINUSE check, each where this CPU runs it
 * and enables its component: the check must see the state it leaves. */
static void xinuse_controls(int tracked, void (*put)(const char *), unsigned long *passed, unsigned long *failed)
{
	static const struct {
		const char *name;
		void (*fn)(void);
		unsigned int bit;
	} controls[] = {
		{"ymm left dirty", dirty_ymm, 2},
		{"zmm16 written", dirty_zmm16, 7},
	};
	unsigned int r[4];
	cpuid(7, 0, r);
	int avx512f = (r[1] >> 16) & 1;
	for (uc_size_t i = 0; i < sizeof controls / sizeof controls[0]; i++) {
		char line[120] = "xinuse control ";
		say(line, sizeof line, controls[i].name);
		if (!tracked || !((upper_enabled >> controls[i].bit) & 1) || (controls[i].bit != 2 && !avx512f)) {
			say(line, sizeof line, ": not checked\n");
			put(line);
			continue;
		}
		xstate_reset();
		controls[i].fn();
		int seen = (xgetbv(1) >> controls[i].bit) & 1;
		xstate_reset();
		say(line, sizeof line, seen ? ": caught\n" : ": FAIL not caught\n");
		put(line);
		*(seen ? passed : failed) += 1;
	}
}

static void force(int code)
{
	struct uc_rule r;
	if (uc_rule_force(&r, code, 64, "the ring 0 test") == 0) {
		uc_rule_install(&r);
		uc_rule_patch(kernel_poke); /* every force is the same table dispatch: it cannot fail twice */
	}
}

/* The arena's bytes before a copy: no short period, so a byte copied from
 * the wrong offset differs. */
static unsigned char pattern(uc_size_t i)
{
	unsigned int x = (unsigned int)i * 2654435761u;
	return (unsigned char)((x >> 24) ^ (x >> 11));
}

struct sweep {
	unsigned char *arena;
	uc_size_t arena_size;
	int code, check_xinuse;
	unsigned long copies;
	char why[160];
};

static void say(char *buf, uc_size_t size, const char *s)
{
	uc_size_t k = 0;
	while (k + 1 < size && buf[k])
		k++;
	while (k + 1 < size && *s)
		buf[k++] = *s++;
	buf[k] = '\0';
}

static void say_uint(char *buf, uc_size_t size, unsigned long v)
{
	char digits[24];
	int n = 0;
	char one[2] = {0, 0};
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0) {
		one[0] = digits[--n];
		say(buf, size, one);
	}
}

/* What byte i of the arena must hold after the copy. */
static unsigned char expected(uc_size_t i, uc_size_t src, uc_size_t dst, uc_size_t n)
{
	return i >= dst && i < dst + n ? pattern(src + (i - dst)) : pattern(i);
}

/* One copy of n bytes from src to dst (offsets in the arena, either order,
 * overlapping or not) with 64 guard bytes around each; 0 when right, else
 * the first failure is kept in s->why. Only the bytes around the source and
 * the destination are set and checked: a disjoint layout spans pages. */
static int one(struct sweep *s, void *(*fn)(void *, const void *, uc_size_t), const char *what, uc_size_t src,
	       uc_size_t dst, uc_size_t n, int must_take)
{
	uc_size_t lo = (src < dst ? src : dst) - 64, hi = (src > dst ? src : dst) + n + 64, i;
	/* the windows [lo, a) and [b, hi), one window when they meet */
	uc_size_t a = (src < dst ? src : dst) + n + 64, b = (src > dst ? src : dst) - 64;
	volatile unsigned char *m = s->arena;
	const char *wrong = 0;
	if (hi > s->arena_size) {
		say(s->why, sizeof s->why, "the test's layout does not fit the arena");
		return 1;
	}
	if (a >= b)
		a = b = hi;
	for (i = lo; i < hi; i = i + 1 == a ? b : i + 1)
		m[i] = pattern(i);
	int took = uc_copy_strategy(s->arena + dst, s->arena + src, n);
	unsigned int before = 0;
	if (s->check_xinuse) {
		xstate_reset();
		before = xgetbv(1);
	}
	void *ret = fn(s->arena + dst, s->arena + src, n);
	unsigned int upper = s->check_xinuse ? xgetbv(1) & ~before & UPPER_STATE : 0;
	s->copies++;
	for (i = lo; i < hi && m[i] == expected(i, src, dst, n); i = i + 1 == a ? b : i + 1)
		;
	if (ret != s->arena + dst)
		wrong = ": did not return dst";
	else if (i < hi)
		wrong = i >= dst && i < dst + n ? ": wrong byte in dst" : ": wrote outside dst";
	else if (must_take && took != s->code)
		wrong = ": the dispatch took another strategy";
	else if (upper)
		wrong = ": upper vector state left in use (XINUSE)";
	if (!wrong)
		return 0;
	if (!s->why[0]) {
		say(s->why, sizeof s->why, what);
		say(s->why, sizeof s->why, " n=");
		say_uint(s->why, sizeof s->why, n);
		say(s->why, sizeof s->why, " src=");
		say_uint(s->why, sizeof s->why, src);
		say(s->why, sizeof s->why, " dst=");
		say_uint(s->why, sizeof s->why, dst);
		say(s->why, sizeof s->why, wrong);
	}
	return 1;
}

static const uc_size_t long_lengths[] = {1023, 1024, 1025, 4095, 4096, 4160, 8192 + 37, 65536 + 1};
static const uc_size_t misalign[][2] = {{0, 0}, {5, 17}, {33, 63}, {63, 1}};
#ifdef UC_HAS_MEMMOVE
static const uc_size_t shifts[] = {1, 7, 31, 32, 33, 64, 65, 200};
#endif

/* Every case of one length; the number that failed. */
static int length(struct sweep *s, uc_size_t n)
{
	int bad = 0;
	uc_size_t base = 4096, gap = 8192 + 4096 * (n / 4096 + 1);
	for (uc_size_t k = 0; k < sizeof misalign / sizeof misalign[0]; k++) {
		uc_size_t src = base + misalign[k][0], dst = base + gap + misalign[k][1];
		bad += one(s, uc_memcpy, "memcpy", src, dst, n, 1);
		bad += one(s, uc_memcpy, "memcpy, dst below src", dst, src, n, 1);
#ifdef UC_HAS_MEMMOVE
		bad += one(s, uc_memmove, "memmove", src, dst, n, 1);
#endif
	}
#ifdef UC_HAS_MEMMOVE
	for (uc_size_t k = 0; k < sizeof shifts / sizeof shifts[0] && shifts[k] < n; k++) {
		bad += one(s, uc_memmove, "memmove, dst above src", base, base + shifts[k], n, 0);
		bad += one(s, uc_memmove, "memmove, dst below src", base + shifts[k], base, n, 0);
	}
#endif
	return bad;
}

int strategies_run(unsigned char *arena, uc_size_t arena_size, void (*put)(const char *), unsigned long *passed,
		   unsigned long *failed)
{
	const char *xinuse_line;
	struct sweep s = {arena, arena_size, 0, xinuse_tracked(&xinuse_line), 0, {0}};
	int isa = UC_ISA_ENABLED(), ran = 0;
	put(xinuse_line);
	xinuse_controls(s.check_xinuse, put, passed, failed);
	for (uc_size_t k = 0; k < sizeof strategies / sizeof strategies[0]; k++) {
		if (strategies[k].isa > isa)
			continue;
		char line[200] = "strategy ";
		int bad = 0;
		s.code = strategies[k].code;
		s.why[0] = '\0';
		s.copies = 0;
		force(s.code);
		uc_size_t top = strategies[k].max_n < 520 ? strategies[k].max_n : 520;
		for (uc_size_t n = strategies[k].min_n; n <= top; n++)
			bad += length(&s, n);
		for (uc_size_t i = 0; i < sizeof long_lengths / sizeof long_lengths[0]; i++)
			if (long_lengths[i] <= strategies[k].max_n)
				bad += length(&s, long_lengths[i]);
		say(line, sizeof line, strategies[k].name);
		say(line, sizeof line, ": ");
		say_uint(line, sizeof line, s.copies);
		say(line, sizeof line, bad ? " copies, FAIL " : " copies, ok");
		say(line, sizeof line, s.why);
		say(line, sizeof line, "\n");
		put(line);
		*(bad ? failed : passed) += 1;
		ran++;
	}
	return ran;
}
