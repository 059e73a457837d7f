/* The static library's memcpy and memmove: IFUNC symbols, so that the
 * program's calls reach the routine this CPU runs through its own PLT and
 * no code is written at run time (preload/uarchcopy.c says why).
 *
 * The resolver runs while the program's start applies its IRELATIVE
 * relocations, before the C library is set up, and in a position-
 * independent program before every other relocation is applied. So it
 * reads no pointer stored in data and calls nothing of the C library:
 * CPUID and XGETBV (uc_cpuid_read, uc_copy_isa), the integer tables of
 * copy_rule.c and copy.asm, addresses relative to the program counter (the
 * hidden declarations below make the compiler write every reference so),
 * and the environment read with raw system calls. */
#include "copy_rule.h"
#include "resolve.h"

#include <stdint.h>

#define HIDDEN __attribute__((visibility("hidden")))
extern const int uc_patch_offsets[UC_N_ROUTINE_SETS * UC_N_PATCH_SITES] HIDDEN;
extern void *uc_memcpy(void *dst, const void *src, size_t n) HIDDEN;
extern void *uc_memmove(void *dst, const void *src, size_t n) HIDDEN;
extern void uc_cpuid_read(struct uc_cpuid *id) HIDDEN;
extern int uc_copy_isa(void) HIDDEN;
extern unsigned int uc_rule_resolve_set(const struct uc_cpuid *id, int isa) HIDDEN;

struct resolution resolved HIDDEN;

static long syscall3(long nr, long a, long b, long c)
{
	long ret;
	__asm__ __volatile__("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
	return ret;
}

enum { SYS_READ = 0, SYS_CLOSE = 3, SYS_OPENAT = 257, AT_FDCWD_ = -100, O_RDONLY_CLOEXEC = 02000000 };

/* One variable of the environment as it streams past: how many bytes of
 * "NAME=" matched so far, and the value's first bytes. */
struct watch {
	const char *name; /* "UARCHCOPY_ISA=" */
	int matched;      /* -1: this entry is another variable */
	char value[8];
	int len;
};

static void watch_byte(struct watch *w, char c, int at_start)
{
	if (at_start)
		w->matched = 0, w->len = 0;
	if (w->matched < 0)
		return;
	if (w->name[w->matched]) {
		w->matched = w->name[w->matched] == c ? w->matched + 1 : -1;
		return;
	}
	if (c && w->len < (int)sizeof w->value - 1)
		w->value[w->len++] = c;
	w->value[w->len] = '\0';
}

static int same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* Reads UARCHCOPY_ISA and UARCHCOPY_STRATEGY from /proc/self/environ, the
 * environment the program was started with (getenv is not ready before
 * the C library's relocations): the first definition of each, the one
 * getenv finds. */
static void read_environment(struct resolution *r)
{
	static const char path[] = "/proc/self/environ";
	struct watch isa = {"UARCHCOPY_ISA=", -1, {0}, 0}, strategy = {"UARCHCOPY_STRATEGY=", -1, {0}, 0};
	int have_isa = 0, have_strategy = 0, at_start = 1;
	char buf[512];
	long fd = syscall3(SYS_OPENAT, AT_FDCWD_, (long)path, O_RDONLY_CLOEXEC), n;
	r->isa_cap = 2;
	if (fd < 0)
		return;
	r->environment = 1;
	while ((n = syscall3(SYS_READ, fd, (long)buf, sizeof buf)) > 0)
		for (long i = 0; i < n; i++) {
			watch_byte(&isa, buf[i], at_start);
			watch_byte(&strategy, buf[i], at_start);
			at_start = buf[i] == '\0';
			if (at_start && isa.matched > 0 && !isa.name[isa.matched] && !have_isa)
				have_isa = 1, r->isa_cap = same(isa.value, "gpr") ? 0 : same(isa.value, "avx2") ? 1 : 2;
			if (at_start && strategy.matched > 0 && !strategy.name[strategy.matched] && !have_strategy)
				have_strategy = 1, r->forced = strategy.len > 0;
		}
	syscall3(SYS_CLOSE, fd, 0, 0);
}

/* The routine memcpy and memmove are: this core's compiled set's memmove,
 * the table dispatch's under UARCHCOPY_STRATEGY (the constructor installs
 * the forced table, which it reads), or the baseline entry uc_memmove
 * where no table is compiled for this core. Every call returns the same:
 * the answers of the first. */
copy_fn *resolve_copy(void)
{
	if (!resolved.ran) {
		struct uc_cpuid id;
		read_environment(&resolved);
		uc_cpuid_read(&id);
		int isa = uc_copy_isa();
		resolved.set = resolved.forced ? 1 : uc_rule_resolve_set(&id, isa < resolved.isa_cap ? isa : resolved.isa_cap);
		resolved.ran = 1;
	}
	return (copy_fn *)((uintptr_t)uc_memcpy +
			   (uintptr_t)(intptr_t)uc_patch_offsets[resolved.set * UC_N_PATCH_SITES + UC_SITE_MEMMOVE]);
}

void *memcpy(void *dst, const void *src, size_t n) __attribute__((ifunc("resolve_copy")));
void *memmove(void *dst, const void *src, size_t n) __attribute__((ifunc("resolve_copy")));
