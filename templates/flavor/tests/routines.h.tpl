${banner("/*", "*/")}
@ local P = opts.prefix
@ local G = string.upper(P)
/*
 * Every routine the flavor lists (x86_64/copy.asm exports), as an X-macro: X(symbol, name,
 * kind, min_n, max_n, isa). max_n is (size_t)-1 where there is no limit; isa is the widest
 * instructions it may run (0 general registers, 1 AVX2, 2 AVX-512): a harness calls it only
 * where copy_isa() says the CPU has them; -1 for a routine that runs the installed table,
 * whose strategies rule_install already limited to what the CPU has. Test harnesses expand it, so they cover each
 * routine the templates emit and a new one cannot be missed.
 */
#ifndef ${P}routines_h
#define ${P}routines_h

/* As in copy_rule.h: a prefix that differs only in case would share its macros. */
#ifdef ${G}KIND_COPY
#error "routines.h of prefix ${P}: ${G}KIND_COPY is defined already, by the routines.h of a prefix that differs from ${P} only in case; their macros would clash: generate one of them with another prefix"
#endif

#define ${G}KIND_COPY 1      /* (void *dst, const void *src, size_t n) */
#define ${G}KIND_PREDICATE 2 /* (const void *dst, const void *src, size_t n) */
#define ${G}KIND_TO_USER 3   /* (void *user_dst, const void *src, size_t n) */
#define ${G}KIND_FROM_USER 4 /* (void *dst, const void *user_src, size_t n) */
#define ${G}KIND_CLEAR_USER 5 /* (void *user_dst, size_t n) */
#define ${G}KIND_FAULT_EXIT 6 /* (void) */
#define ${G}KIND_MOVE 7       /* (void *dst, const void *src, size_t n), overlapping in any way */
#define ${G}KIND_ISA 8        /* (void) -> int */

#define ${G}ROUTINES(X) \
@ for _, r in ipairs(flavor.routines) do
@   local isa = ({ gpr = 0, avx2 = 1, avx512 = 2, table = -1 })[r.isa]
	X(${P}${r.name}, "${r.name}", ${G}KIND_${string.upper(r.kind)}, ${r.min_n}, ${r.max_n < 0 and "(size_t)-1" or r.max_n}, ${isa}) \
@ end
	/* end */

#endif
