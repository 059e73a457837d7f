/* libuarchcopy: the user flavor's copies as the C library's memcpy and
 * memmove. LD_PRELOAD=build/libuarchcopy.so puts them under a program
 * unchanged; build/libuarchcopy.a links them in statically.
 *
 * The choice is made once, and no byte of code is ever written: no page
 * of the library's text is made writable.
 *  - The shared library's memcpy and memmove are one stub that jumps
 *    through a pointer, which the constructor sets: to this CPU's compiled
 *    routine; on a core with no evidence, or whose measured table is every
 *    copy forward, to the C library's own memmove (without a table that
 *    beat rep movsb there the library must not make a program slower than
 *    it was, and rep movsb alone can be slower than the C library's copy
 *    on the random-size workload; measured: see
 *    docs/notebook/comment-figures-2026-12.md#a-core-with-no-evidence-defers-to-the-c-library).
 *    Until then the pointer holds the baseline entry, one rep movsb,
 *    correct on every CPU. Not IFUNC symbols: a preloaded library is
 *    relocated after the libraries a program needs, and glibc binds those
 *    now-bound libraries' memcpy first, calling the resolver of an object
 *    not yet relocated and printing "Relink `libtinfo.so.6' with
 *    `libuarchcopy.so' for IFUNC symbol `memcpy'" on every start of
 *    sqlite3, tar or bash.
 *    Then the constructor points the slots of memcpy and memmove, in the
 *    program and every library loaded with it, past the stub: the PLT
 *    slots, the GOT slots through which code takes their address or calls
 *    them without the PLT, and the pointers static initializers hold, all
 *    at the chosen routine, or at the C library's own memcpy and memmove
 *    where it defers (rebind.c); its dlopen and dlmopen do the same for
 *    the libraries they load. A call then takes the one jump it takes
 *    without the library. What reaches the stub still (an address from
 *    dlsym, a library the C library opens itself, a slot whose page could
 *    not be made writable) runs the same copy behind one jump more.
 *  - The static library's memcpy and memmove are IFUNC symbols
 *    (preload/resolve.c): a static program applies their relocations
 *    first, so its calls reach the chosen routine with no stub between.
 *    Where no table is compiled for this core, the baseline entry; the
 *    static library has no other memmove to defer to, so a cell of
 *    strategy libc runs its stand-in there (stand_in.c: one rep movsb,
 *    highest first by the widest vector loop where the ranges overlap that
 *    way), not the C library's memmove the probe judged it by.
 * memcpy is memmove in both: a program that overlaps a memcpy keeps
 * working, for the price of the overlap compares before the copies that
 * go up or down; a copy that loads everything first takes none
 * (memmove.tpi).
 *
 * Environment, read once at load:
 *   UARCHCOPY_ISA=gpr|avx2|avx512   the widest instructions the copies may use
 *   UARCHCOPY_STRATEGY=NAME         every copy takes strategy NAME where it can
 *                                   copy the length, forward elsewhere (tests):
 *                                   the table dispatch runs it, under the
 *                                   forced table the constructor installs
 *                                   (data, not code)
 *   UARCHCOPY_REPORT=1              write the installed rule to stderr, and
 *                                   any value above it ignored; without it
 *                                   the library writes nothing there */
#define _GNU_SOURCE
#include "copy_rule.h"

#include "resolve.h"

#ifdef UARCHCOPY_SHARED
#include "rebind.h"

#include <dlfcn.h>
#include <stdio.h>
#else
#include "stand_in.h"
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/* The constructor runs before the program's main, possibly before other
 * libraries' constructors (the C library's own have run): of the C
 * library it calls only getenv, write and, in the shared library, dlsym,
 * snprintf and rebind.c's dl_iterate_phdr, dladdr, dladdr1, sysconf,
 * mprotect, pthread_atfork and a mutex. It writes to stderr only where
 * UARCHCOPY_REPORT is set: a program's stderr is the program's. */
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

/* Whether UARCHCOPY_REPORT is set: say writes nothing without it. */
static int reporting;

static void say(const char *a, const char *b, const char *c)
{
	const char *parts[] = {"libuarchcopy: ", a, b, c, "\n"};
	if (!reporting)
		return;
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

#ifdef UARCHCOPY_SHARED
/* What memcpy and memmove run: the baseline entry until the constructor
 * chooses (a pointer relocation fills before any code of the program
 * runs). */
static copy_fn *chosen = uc_memmove;
/* What a program's PLT slots of memcpy are pointed at (rebind). */
static copy_fn *chosen_memcpy = uc_memmove;

void *memmove(void *dst, const void *src, size_t n)
{
	return chosen(dst, src, n);
}
void *memcpy(void *dst, const void *src, size_t n) __attribute__((alias("memmove")));
/* The stub's own address, which a program's memmove may not be. */
extern __typeof(memmove) stub __attribute__((alias("memmove"), visibility("hidden")));

/* Points the slots at what the stub jumps to (rebind.h); says how many it
 * could not, where the report is asked for. */
static void rebind(copy_fn *to_memcpy, int report)
{
	struct rebound b = rebind_copies(stub, to_memcpy, chosen);
	if (!report)
		return;
	char line[160];
	snprintf(line, sizeof line, "%d slots of memcpy and memmove point past the stub; %d left on it (a page "
		 "could not be made writable), %d bound elsewhere", b.slots, b.refused, b.elsewhere);
	say(line, NULL, NULL);
}

/* The C library's function name, found once. */
static void *next(void **at, const char *name)
{
	void *f = __atomic_load_n(at, __ATOMIC_ACQUIRE);
	if (!f)
		__atomic_store_n(at, f = dlsym(RTLD_NEXT, name), __ATOMIC_RELEASE);
	return f;
}

static void *next_dlopen, *next_dlmopen;

/* dlopen and dlmopen: the C library's, then the slots of what they loaded
 * pointed past the stub, where called from here they load what they load
 * called from the caller (rebind.c); elsewhere a jump to the C library's,
 * so that it finds the caller by its return address. */
void *dlopen(const char *file, int mode)
{
	void *(*real)(const char *, int) = (void *(*)(const char *, int))next(&next_dlopen, "dlopen");
	if (!real)
		return NULL;
	if (rebind_same_loader(file, mode, __builtin_return_address(0)))
		return rebind_opened(real(file, mode));
	return real(file, mode);
}

void *dlmopen(Lmid_t lmid, const char *file, int mode)
{
	void *(*real)(Lmid_t, const char *, int) = (void *(*)(Lmid_t, const char *, int))next(&next_dlmopen, "dlmopen");
	if (!real)
		return NULL;
	if (rebind_same_loader(file, mode, __builtin_return_address(0)))
		return rebind_opened(real(lmid, file, mode));
	return real(lmid, file, mode);
}

/* Points memcpy and memmove at the installed rule's routine, or at the C
 * library's memmove where that is the baseline; says which. The probe
 * judges a table of this flavor against the C library's memmove, and
 * keeps every copy forward where none beats it. The cells of strategy
 * libc, where the C library's memmove won, jump to it through
 * uc_libc_memmove. */
static const char *choose_routines(const struct uc_rule *rule)
{
	copy_fn *routine = (copy_fn *)uc_rule_routine(UC_SITE_MEMMOVE);
	copy_fn *next = (copy_fn *)dlsym(RTLD_NEXT, "memmove");
	if (next)
		uc_libc_memmove = next;
	if (routine != uc_memmove) {
		chosen = chosen_memcpy = routine;
		return next ? uc_rule_routines()
			    : "the installed rule's, the C library's memmove not found: its cells run one rep movsb";
	}
	if (!next)
		return "baseline (the C library's memmove was not found)";
	chosen = next;
	/* Where it defers, a program's memcpy is the C library's memcpy again. */
	chosen_memcpy = (copy_fn *)dlsym(RTLD_NEXT, "memcpy");
	if (!chosen_memcpy)
		chosen_memcpy = next;
	return rule->status == UC_RULE_BASELINE ? "the C library's memmove (no evidence for this core)"
						: "the C library's memmove (this core's measured table is every copy forward)";
}
#define CHECKED_COPY chosen
#else
/* What the resolver bound memcpy and memmove to; where it read another
 * environment than getenv's (no /proc), says so. */
static const char *choose_routines(const struct uc_rule *rule)
{
	(void)rule;
	if (!resolved.ran)
		return "none yet (memcpy and memmove were not resolved)";
	if (!resolved.environment && (getenv("UARCHCOPY_ISA") || getenv("UARCHCOPY_STRATEGY")))
		say("/proc/self/environ is unreadable: memcpy and memmove were resolved without UARCHCOPY_ISA and "
		    "UARCHCOPY_STRATEGY",
		    NULL, NULL);
	if ((const void *)uc_rule_routine(UC_SITE_MEMMOVE) != (const void *)resolve_copy())
		return "not the installed rule's: see above";
	return uc_rule_routines();
}
#define CHECKED_COPY memmove
#endif

__attribute__((constructor)) static void install(void)
{
	static const char *const isa_names[] = {"gpr", "avx2", "avx512"};
	static struct uc_rule forced;
	const char *isa = getenv("UARCHCOPY_ISA"), *strategy = getenv("UARCHCOPY_STRATEGY");
	const struct uc_rule *rule;
	reporting = getenv("UARCHCOPY_REPORT") != NULL;
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
	const char *routines = choose_routines(rule);
	if (reporting) {
		char line[1024];
		uc_rule_describe(line, sizeof line, rule);
		say(line, "; routines ", routines);
	}
#ifdef UARCHCOPY_SHARED
	rebind(chosen_memcpy, reporting);
#else
	const char *down = stand_in_install();
	say("no C library memmove to defer to: strategy libc and memmove's overlaps run rep movsb, or ", down,
	    " where the destination lies above an overlapping source");
#endif
}

/* The checked forms _FORTIFY_SOURCE calls: a copy past the object's end is
 * the C library's to report. */
extern void __chk_fail(void) __attribute__((noreturn));

void *__memcpy_chk(void *dst, const void *src, size_t n, size_t dst_size)
{
	if (n > dst_size)
		__chk_fail();
	return CHECKED_COPY(dst, src, n);
}

void *__memmove_chk(void *dst, const void *src, size_t n, size_t dst_size)
{
	if (n > dst_size)
		__chk_fail();
	return CHECKED_COPY(dst, src, n);
}
