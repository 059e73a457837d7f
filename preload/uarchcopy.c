/* libuarchcopy: the user flavor's copies as the C library's memcpy and
 * memmove. LD_PRELOAD=build/libuarchcopy.so puts them under a program
 * unchanged; build/libuarchcopy.a links them in statically.
 *
 * The choice is made once, by a constructor: it reads CPUID and XGETBV,
 * installs the rule and patches the entries (uc_rule_patch) to jump to
 * the compiled routine of this CPU's measured table. On a core with no
 * evidence, or whose measured table is every copy forward, the shared
 * library's entry jumps to the C library's own memmove instead: without a
 * table that beat rep movsb there the library must not make a program slower
 * than it was, and rep movsb took 1.03x the C library's time on the
 * random-size workload of a Zen 5 guest nobody had measured yet. The
 * static library, which has no other memmove to defer to, keeps the
 * baseline there: one rep movsb with no dispatch. Before the constructor
 * runs (another library's constructor may copy first) every entry is that
 * baseline, correct on every CPU. Nothing is tested on a call. memcpy and
 * memmove are the entry uc_memmove itself (the Makefile defines them at
 * its address), so a call is the PLT's jump, then the entry's. memcpy is
 * memmove here: a program that overlaps a memcpy keeps working, for the
 * price of one compare.
 *
 * Environment, read once at load:
 *   UARCHCOPY_ISA=gpr|avx2|avx512   the widest instructions the copies may use
 *   UARCHCOPY_STRATEGY=NAME         every copy takes strategy NAME where it can
 *                                   copy the length, forward elsewhere (tests):
 *                                   the table dispatch runs it
 *   UARCHCOPY_REPORT=1              write the installed rule to stderr */
#include "copy_rule.h"

#ifdef UARCHCOPY_SHARED
#include <dlfcn.h>
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* The constructor runs before the program's main, possibly before other
 * libraries' constructors: of the C library it calls only getenv, sysconf,
 * mprotect, write and, in the shared library, dlsym. */
static size_t text_len(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

static int same_text(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

static void say(const char *a, const char *b, const char *c)
{
	const char *parts[] = {"libuarchcopy: ", a, b, c, "\n"};
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
		if (parts[i] && write(2, parts[i], text_len(parts[i])) < 0)
			return;
}

static const struct {
	int code;
	const char *name;
} strategies[] = {
#define ROW(code, name, min_n, max_n, isa) {code, name},
	UC_STRATEGIES(ROW)
#undef ROW
};

/* One strategy in every class, in the lengths it copies; forward elsewhere
 * (uc_rule_force). The table keeps the CPU's entry and says it was
 * forced, so that the report does not pass it off as the CPU's rule or the
 * baseline. */
static int forced_table(const char *name, const struct uc_rule *cpu_rule, struct uc_rule *r)
{
	static char reason[64];
	size_t i = 0;
	while (i < sizeof strategies / sizeof *strategies &&
	       !same_text(strategies[i].name, name, text_len(strategies[i].name) + 1))
		i++;
	if (i == sizeof strategies / sizeof *strategies)
		return -1;
	static const char head[] = "UARCHCOPY_STRATEGY=";
	size_t len = sizeof head - 1, k;
	for (k = 0; k < len; k++)
		reason[k] = head[k];
	for (k = 0; strategies[i].name[k] && len < sizeof reason - 1; k++)
		reason[len++] = strategies[i].name[k];
	reason[len] = '\0';
	/* 64: the head of an aligning strategy, where it is the one forced. */
	if (uc_rule_force(r, strategies[i].code, 64, reason) != 0)
		return -1;
	r->entry = cpu_rule->entry;
	return 0;
}

/* uc_rule_patch's text poke: the page made writable for the write, then
 * executable again. Where the system refuses writable code, the site is
 * left as built, the baseline, which is correct: each entry copies right
 * whether or not the others were patched. */
static void poke(void *addr, const void *bytes, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), first = (uintptr_t)addr & ~(page - 1);
	size_t span = (size_t)((uintptr_t)addr + len - first);
	if (mprotect((void *)first, span, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
		return;
	for (size_t i = 0; i < len; i++)
		((volatile unsigned char *)addr)[i] = ((const unsigned char *)bytes)[i];
	mprotect((void *)first, span, PROT_READ | PROT_EXEC);
}

#ifdef UARCHCOPY_SHARED
/* The patch list's sites (x86_64/copy.asm), which copy_rule.h does not
 * declare: the shared library writes its own jump at memmove's. */
extern const uintptr_t uc_patch_sites[UC_N_PATCH_SITES];
extern const unsigned char uc_patch_site_len[UC_N_PATCH_SITES];

/* Where the C library's memmove is beyond a rel32's reach, the entry jumps
 * through this pointer (jmp [rip + disp32], 6 bytes). */
static void *libc_memmove;

/* Points the memmove entry, which memcpy, memmove and their checked forms
 * all run, at the C library's memmove. 0, or -1 (nothing written) where
 * there is none or no jump fits the site. */
static int defer_to_libc(void)
{
	void *next = dlsym(RTLD_NEXT, "memmove");
	uintptr_t site = uc_patch_sites[UC_SITE_MEMMOVE];
	unsigned char jmp[6];
	size_t len;
	if (!next || next == (void *)uc_memmove)
		return -1;
	uint64_t rel = (uint64_t)(uintptr_t)next - (uint64_t)(site + 5);
	if (((rel + 0x80000000ull) >> 32) == 0) {
		jmp[0] = 0xe9, len = 5;
	} else {
		libc_memmove = next;
		rel = (uint64_t)(uintptr_t)&libc_memmove - (uint64_t)(site + 6);
		if (((rel + 0x80000000ull) >> 32) != 0 || uc_patch_site_len[UC_SITE_MEMMOVE] < 6)
			return -1;
		jmp[0] = 0xff, jmp[1] = 0x25, len = 6;
	}
	for (int i = 0; i < 4; i++)
		jmp[len - 4 + i] = (unsigned char)(rel >> (8 * i));
	poke((void *)site, jmp, len);
	return 0;
}
#endif

__attribute__((constructor)) static void install(void)
{
	static const char *const isa_names[] = {"gpr", "avx2", "avx512"};
	static struct uc_rule forced;
	const char *isa = getenv("UARCHCOPY_ISA"), *strategy = getenv("UARCHCOPY_STRATEGY");
	const struct uc_rule *rule;
	if (isa && *isa) {
		int k = 0;
		while (k < 3 && !same_text(isa, isa_names[k], text_len(isa_names[k]) + 1))
			k++;
		if (k < 3)
			uc_rule_limit_isa(k);
		else
			say("UARCHCOPY_ISA=", isa, ": not gpr, avx2 or avx512; ignored");
	}
	rule = uc_rule_init();
	if (strategy && *strategy) {
		if (forced_table(strategy, rule, &forced) == 0)
			uc_rule_install(rule = &forced);
		else
			say("UARCHCOPY_STRATEGY=", strategy, ": no such strategy; the CPU's rule stays");
	}
	const char *routines = uc_rule_routines();
	if (uc_rule_patch(poke) != 0)
		say("uc_rule_patch refused: the copies stay the baseline", NULL, NULL);
#ifdef UARCHCOPY_SHARED
	/* No compiled table and nothing forced: the C library's copy. The
	 * probe judged a measured table against every copy forward, not
	 * against the C library. */
	else if (uc_rule_routine(UC_SITE_MEMMOVE) == (const void *)uc_memmove && defer_to_libc() == 0)
		routines = rule->status == UC_RULE_BASELINE
				   ? "the C library's memmove (no evidence for this core)"
				   : "the C library's memmove (this core's measured table is every copy forward)";
#endif
	if (getenv("UARCHCOPY_REPORT")) {
		char line[1024];
		uc_rule_describe(line, sizeof line, rule);
		say(line, "; routines ", routines);
	}
}

/* The checked forms _FORTIFY_SOURCE calls: a copy past the object's end is
 * the C library's to report. */
extern void __chk_fail(void) __attribute__((noreturn));

void *__memcpy_chk(void *dst, const void *src, size_t n, size_t dst_size)
{
	if (n > dst_size)
		__chk_fail();
	return uc_memmove(dst, src, n);
}

void *__memmove_chk(void *dst, const void *src, size_t n, size_t dst_size)
{
	if (n > dst_size)
		__chk_fail();
	return uc_memmove(dst, src, n);
}
