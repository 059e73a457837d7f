${banner("/*", "*/")}
@ local P = opts.prefix
@ local G = string.upper(P)
/*
 * Every routine the flavor lists (x86_64/copy.asm exports), as an X-macro: X(symbol, name,
 * kind, min_n, max_n). max_n is (size_t)-1 where there is no limit. Test harnesses expand it, so they cover each routine the
 * templates emit and a new one cannot be missed.
 */
#ifndef ${P}routines_h
#define ${P}routines_h

#define ${G}KIND_COPY 1      /* (void *dst, const void *src, size_t n) */
#define ${G}KIND_PREDICATE 2 /* (const void *dst, const void *src, size_t n) */
#define ${G}KIND_TO_USER 3   /* (void *user_dst, const void *src, size_t n) */
#define ${G}KIND_FROM_USER 4 /* (void *dst, const void *user_src, size_t n) */
#define ${G}KIND_CLEAR_USER 5 /* (void *user_dst, size_t n) */
#define ${G}KIND_FAULT_EXIT 6 /* (void) */

#define ${G}ROUTINES(X) \
@ for _, r in ipairs(flavor.routines) do
	X(${P}${r.name}, "${r.name}", ${G}KIND_${string.upper(r.kind)}, ${r.min_n}, ${r.max_n < 0 and "(size_t)-1" or r.max_n}) \
@ end
	/* end */

#endif
