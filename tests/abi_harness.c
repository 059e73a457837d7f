/* The ABI harness: every routine of out/tests/routines.h, called through
 * tests/abi/trampoline.asm with random callee-saved registers and a filled
 * red zone, on both the forward and the descending path, and on the vector
 * paths where the flavor has them. A flavor of general registers only
 * (UC_FLAVOR_ISA "gpr", the kernel's) keeps r10 and r11 too: Linux calls its
 * user copies from inline assembly that names only rax, rcx, rdx, rsi, rdi,
 * r8 and r9 as changed (uc_user_copy_call in the patch's uaccess_64.h).
 * Any register not restored, DF left set,
 * rsp moved, write below rsp, or upper vector state the routine left in use
 * is reported by name. The upper vector state is judged per component, where
 * the CPU reports XINUSE and XCR0 enables the component: the trampoline
 * brings each to its initial state before the call, so a routine answers only
 * for what it added (a routine that touched ymm or zmm0-15 must end with
 * vzeroupper, and one that touched zmm16-31 must clear it too; the opmask
 * registers, which the System V ABI makes call-clobbered, are not judged).
 * A routine is called only where the CPU and the OS enable its instructions.
 * A self-test first proves the harness catches each kind of breakage. */
#include "copy_rule.h"
#include "../common/text_poke.h"
#include "tests/routines.h"

#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct abi_state {
	uint64_t in[8], out[8];
	uint64_t rflags, rsp_in, rsp_out, red_bad, ret, xinuse, xinuse_before;
};

extern uint64_t abi_xstate_reset;
extern void *(*abi_dirty_before)(void *, const void *, size_t);

uint64_t abi_call(const void *fn, const uint64_t args[4], struct abi_state *st);

void *abi_clobbers_rbx(void *, const void *, size_t);
void *abi_clobbers_r15(void *, const void *, size_t);
void *abi_clobbers_r11(void *, const void *, size_t);
void *abi_leaves_df_set(void *, const void *, size_t);
void *abi_writes_red_zone(void *, const void *, size_t);
void *abi_moves_rsp(void *, const void *, size_t);
void *abi_dirties_upper(void *, const void *, size_t);
void *abi_writes_zmm16(void *, const void *, size_t);

/* The components of the upper vector state, by their XINUSE and XCR0 bit
 * (Intel SDM vol. 1, 13.1 and 13.6). Not the opmask state (bit 5): its
 * registers are call-clobbered, and zeroing them would not return it to
 * its initial state, which only an XRSTOR does. */
static const struct component {
	unsigned int bit;
	const char *name;
} components[] = {
	{2, "AVX (upper halves of ymm0-15)"},
	{6, "ZMM_Hi256 (upper halves of zmm0-15)"},
	{7, "Hi16_ZMM (zmm16-31)"},
};
#define N_COMPONENTS (sizeof components / sizeof *components)

/* The components judged after every call: enabled in XCR0, reported by
 * XINUSE, and reading initial after the trampoline's reset. */
static uint64_t xinuse_checked;
/* Why a component is not judged, where it is not. */
static const char *not_checked_why[8];

static void cpuid(unsigned int leaf, unsigned int sub, unsigned int r[4])
{
	__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

static uint64_t xgetbv(unsigned int which)
{
	unsigned int lo, hi;
	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(which));
	return (uint64_t)hi << 32 | lo;
}

void *abi_clean(void *, const void *, size_t);
static void check_call_state(const void *fn, const uint64_t args[4], struct abi_state *st);

/* Decides which components are judged, and says why each other one is not. */
static void xstate_setup(void)
{
	unsigned int r[4];
	const char *why = NULL;
	uint64_t xcr0 = 0;
	cpuid(0, 0, r);
	unsigned int max_leaf = r[0];
	cpuid(1, 0, r);
	if (!(r[2] & (1u << 26)) || !(r[2] & (1u << 27)))
		why = "this CPU or OS has no XSAVE";
	else if (max_leaf < 0xd)
		why = "this CPU has no CPUID leaf 0xd";
	else {
		cpuid(0xd, 1, r);
		if (!((r[0] >> 2) & 1))
			why = "this CPU reports no XINUSE";
		else
			xcr0 = xgetbv(0);
	}
	uint64_t reset = 0;
	for (size_t i = 0; i < N_COMPONENTS; i++) {
		unsigned int bit = components[i].bit;
		if (why)
			not_checked_why[bit] = why;
		else if (!((xcr0 >> bit) & 1))
			not_checked_why[bit] = "XCR0 does not enable it";
		else
			reset |= 1ull << bit;
	}
	abi_xstate_reset = reset;
	if (!reset)
		return;
	/* An emulator may report a component in use whatever its state (QEMU's
	 * TCG does): such a component cannot be judged. */
	struct abi_state st;
	uint64_t args[4] = {0, 0, 0, 0};
	check_call_state((const void *)abi_clean, args, &st);
	for (size_t i = 0; i < N_COMPONENTS; i++) {
		unsigned int bit = components[i].bit;
		if (!((reset >> bit) & 1))
			continue;
		if ((st.xinuse_before >> bit) & 1)
			not_checked_why[bit] = "XINUSE reads it in use right after the reset";
		else
			xinuse_checked |= 1ull << bit;
	}
}

/* Whether a component is judged after every call. */
static int judged(unsigned int bit)
{
	return (xinuse_checked >> bit) & 1;
}

static const char *component_name(unsigned int bit)
{
	for (size_t i = 0; i < N_COMPONENTS; i++)
		if (components[i].bit == bit)
			return components[i].name;
	return "?";
}

static const char *const reg_names[8] = {"rbx", "rbp", "r12", "r13", "r14", "r15", "r10", "r11"};

/* How many of reg_names a routine must keep: the callee-saved six, and r10
 * and r11 in a flavor of general registers. */
static int kept_registers(void)
{
	return strcmp(UC_FLAVOR_ISA, "gpr") == 0 ? 8 : 6;
}

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void check_call_state(const void *fn, const uint64_t args[4], struct abi_state *st)
{
	memset(st, 0, sizeof *st);
	for (int i = 0; i < 8; i++)
		st->in[i] = next_random();
	abi_call(fn, args, st);
}

/* Calls fn once; writes what broke into why (empty when nothing did). */
static void check_call(const void *fn, const uint64_t args[4], char *why, size_t size)
{
	struct abi_state st;
	check_call_state(fn, args, &st);
	why[0] = '\0';
	size_t len = 0;
	for (int i = 0; i < kept_registers(); i++)
		if (st.out[i] != st.in[i])
			len += (size_t)snprintf(why + len, size - len, "%s not restored; ", reg_names[i]);
	if (st.rflags & (1u << 10))
		len += (size_t)snprintf(why + len, size - len, "DF left set; ");
	if (st.rsp_out != st.rsp_in)
		len += (size_t)snprintf(why + len, size - len, "rsp moved by %lld; ",
					(long long)(st.rsp_out - st.rsp_in));
	if (st.red_bad)
		len += (size_t)snprintf(why + len, size - len, "%llu qwords below rsp written; ",
					(unsigned long long)st.red_bad);
	uint64_t added = st.xinuse & ~st.xinuse_before & xinuse_checked;
	if (added) {
		len += (size_t)snprintf(why + len, size - len, "upper vector state left in use (XINUSE 0x%llx before, "
					"0x%llx after:", (unsigned long long)st.xinuse_before,
					(unsigned long long)st.xinuse);
		for (unsigned int bit = 0; bit < 8; bit++)
			if ((added >> bit) & 1)
				len += (size_t)snprintf(why + len, size - len, " %s", component_name(bit));
		len += (size_t)snprintf(why + len, size - len, "); ");
	}
}

static int passed, failed;

static void self_test(const char *name, const void *fn, const char *want)
{
	uint64_t args[4] = {0, 0, 0, 0};
	char why[256];
	check_call(fn, args, why, sizeof why);
	int ok = want ? strstr(why, want) != NULL : why[0] == '\0';
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("FAIL self-test %s: harness reported '%s', want %s%s\n", name, why, want ? "a report of " : "none",
		       want ? want : "");
	}
}

struct routine {
	const void *fn;
	const char *name;
	int kind;
	size_t min_n, max_n;
	int isa;
};

#define ROUTINE(sym, name, kind, min_n, max_n, isa) {(const void *)sym, name, kind, min_n, max_n, isa},
static const struct routine routines[] = {UC_ROUTINES(ROUTINE)};

/* The harness against routines that break the ABI on purpose: each must be
 * caught, and the clean one must not. */
static void self_tests(void)
{
	self_test("clean routine", (const void *)abi_clean, NULL);
	self_test("clobbered rbx", (const void *)abi_clobbers_rbx, "rbx not restored");
	self_test("clobbered r15", (const void *)abi_clobbers_r15, "r15 not restored");
	self_test("clobbered r11", (const void *)abi_clobbers_r11, kept_registers() == 8 ? "r11 not restored" : NULL);
	self_test("std left set", (const void *)abi_leaves_df_set, "DF left set");
	self_test("red-zone write", (const void *)abi_writes_red_zone, "below rsp written");
	self_test("moved rsp", (const void *)abi_moves_rsp, "rsp moved");
	xstate_setup();
	for (size_t i = 0; i < N_COMPONENTS; i++) {
		unsigned int bit = components[i].bit;
		if ((xinuse_checked >> bit) & 1)
			printf("xinuse: %s checked\n", components[i].name);
		else
			printf("note: xinuse: %s not checked: %s\n", components[i].name, not_checked_why[bit]);
	}
	/* A routine that leaves each kind of state behind, where this CPU can
	 * run it and the harness can see it. */
	unsigned int r[4];
	cpuid(0, 0, r);
	unsigned int max_leaf = r[0];
	cpuid(1, 0, r);
	int avx = (r[2] >> 28) & 1, avx512f = 0;
	if (max_leaf >= 7) {
		cpuid(7, 0, r);
		avx512f = (r[1] >> 16) & 1;
	}
	static const struct {
		const char *name;
		void *(*fn)(void *, const void *, size_t);
		unsigned int bit;
		const char *isa;
	} dirty[] = {
		{"ymm left dirty", abi_dirties_upper, 2, "AVX"},
		{"zmm16 written", abi_writes_zmm16, 7, "AVX-512F"},
	};
	for (size_t i = 0; i < sizeof dirty / sizeof *dirty; i++) {
		int runs = dirty[i].bit == 2 ? avx : avx512f;
		if (!runs)
			printf("note: self-test %s not checked: this CPU lacks %s\n", dirty[i].name, dirty[i].isa);
		else if (!judged(dirty[i].bit))
			printf("note: self-test %s not checked: %s is not checked\n", dirty[i].name,
			       component_name(dirty[i].bit));
		else {
			self_test(dirty[i].name, (const void *)dirty[i].fn, component_name(dirty[i].bit));
			/* The state that code before the call leaves (here the
			 * same routine, which the trampoline calls first) is not
			 * the next routine's, and does not hide what that one
			 * leaves. */
			char name[64];
			abi_dirty_before = dirty[i].fn;
			snprintf(name, sizeof name, "%s before a clean routine", dirty[i].name);
			self_test(name, (const void *)abi_clean, NULL);
			snprintf(name, sizeof name, "%s before and by the routine", dirty[i].name);
			self_test(name, (const void *)dirty[i].fn, component_name(dirty[i].bit));
			abi_dirty_before = NULL;
		}
	}
}

/* Calls each generated routine under every table below, at each length and
 * distance, and counts a routine passed when no call broke the ABI. */
static void call_every_routine(void)
{
	int isa = UC_ISA_ENABLED();

	static unsigned char arena[3 * 65536 + 8192] __attribute__((aligned(4096)));
	static const size_t lengths[] = {0, 1, 3, 7, 8, 15, 16, 32, 63, 64, 65, 300, 4096, 65536};
	static const unsigned int distances[] = {0, 1, 16, 31, 32, 2048, 4095};
	/* Tables that between them send every length and distance through
	 * every strategy: the baseline; small to 32 bytes, then down at every
	 * distance; Zen 2's shape with an aligned head elsewhere; an aligned head
	 * of 64 bytes from 64 up. */
#define ALL(s) {UC_STRATEGY_##s, UC_STRATEGY_##s, UC_STRATEGY_##s, UC_STRATEGY_##s, UC_STRATEGY_##s}
	static const struct uc_rule rules[] = {
		{0, 0, 0, 4096, 0, 1, {{(size_t)-1, ALL(FORWARD)}}, UC_RULE_BASELINE, "", "", ""},
		{2047, 0, 2047, 4096, 0, 2, {{32, ALL(SMALL)}, {(size_t)-1, ALL(DOWN)}}, UC_RULE_BASELINE, "", "", ""},
		{31, 0, 0, 64, 32, 2, {{63, ALL(FORWARD)},
				{(size_t)-1, {UC_STRATEGY_FORWARD_ALIGNED, UC_STRATEGY_DOWN, UC_STRATEGY_FORWARD_ALIGNED,
					      UC_STRATEGY_FORWARD_ALIGNED, UC_STRATEGY_FORWARD_ALIGNED}}},
		 UC_RULE_BASELINE, "", "", ""},
		{0, 0, 0, 4096, 64, 2, {{63, ALL(FORWARD)}, {(size_t)-1, ALL(FORWARD_ALIGNED)}}, UC_RULE_BASELINE, "", "", ""},
#ifdef UC_STRATEGY_AVX2_FORWARD
		/* The vector paths (each falls back where this CPU lacks it). */
		{0, 0, 0, 4096, 0, 2, {{256, ALL(AVX2_SMALL)}, {(size_t)-1, ALL(AVX2_FORWARD)}}, UC_RULE_BASELINE, "", "", ""},
		{2047, 0, 2047, 4096, 0, 2, {{64, ALL(AVX2_SMALL)}, {(size_t)-1, ALL(AVX2_DOWN)}}, UC_RULE_BASELINE, "", "", ""},
		{0, 0, 0, 4096, 0, 2, {{63, ALL(AVX2_SMALL)}, {(size_t)-1, ALL(AVX512_FORWARD)}}, UC_RULE_BASELINE, "", "", ""},
		{2047, 0, 2047, 4096, 0, 2, {{63, ALL(AVX2_SMALL)}, {(size_t)-1, ALL(AVX512_DOWN)}}, UC_RULE_BASELINE, "", "", ""},
#endif
	};
#undef ALL
	for (size_t r = 0; r < sizeof routines / sizeof *routines; r++) {
		const struct routine *rt = &routines[r];
		if (rt->isa > isa) {
			printf("note: %s not called: it needs isa %d, this CPU and OS enable %d\n", rt->name, rt->isa, isa);
			continue;
		}
		char first[512] = "";
		unsigned long calls = 0, bad = 0;
		for (size_t k = 0; k < sizeof rules / sizeof *rules; k++) {
			rule_install_patched(&rules[k]);
			for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++) {
				if (lengths[l] < rt->min_n || lengths[l] > rt->max_n)
					continue;
				for (size_t d = 0; d < sizeof distances / sizeof *distances; d++) {
					size_t gap = distances[d];
					while (gap < lengths[l] && distances[d] != 0)
						gap += 4096;
					if (distances[d] == 0 && lengths[l] > 0)
						gap = 65536 + 4096; /* far, at distance 0 mod 4096 */
					uint64_t args[4] = {(uint64_t)(uintptr_t)(arena + 64 + gap), (uint64_t)(uintptr_t)(arena + 64),
							    lengths[l], next_random()};
					if (rt->kind == UC_KIND_CLEAR_USER)
						args[1] = lengths[l], args[2] = next_random();
					else if (rt->kind == UC_KIND_FAULT_EXIT)
						args[0] = args[1] = args[2] = next_random();
					char why[256];
					check_call(rt->fn, args, why, sizeof why);
					calls++;
					if (why[0] && !bad++)
						snprintf(first, sizeof first, "n=%zu d=%u table %zu: %s", lengths[l],
							 distances[d], k, why);
				}
			}
		}
		if (bad) {
			failed++;
			printf("FAIL %s: %lu of %lu calls broke the ABI; first: %s\n", rt->name, bad, calls, first);
		} else {
			passed++;
		}
	}
	rule_install_patched(&rules[0]);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("usage: %s\nCalls every generated routine through the ABI trampoline; prints N passed, N failed.\n",
		       argv[0]);
		return strcmp(argv[1], "--help") == 0 ? 0 : 2;
	}
	self_tests();
	call_every_routine();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
