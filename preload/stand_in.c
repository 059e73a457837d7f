/* The static library's stand-in for the C library's memmove (stand_in.h).
 *
 * A static program has no other memmove for the library to defer to, so
 * uc_libc_memmove keeps uc_libc_stand_in (libc.tpi): one rep movsb, or,
 * where the destination lies inside the source's range, the descending
 * copy of general registers, 8 bytes a step. That copy takes many times
 * static glibc's memmove from 4 KiB up where the destination lies just
 * above the source (measured: see
 * docs/notebook/comment-figures-2026-12.md#the-static-librarys-stand-in).
 * Here that case takes the descending vector loop instead, the widest
 * the installed rule may run (uc_rule_runs gives avx512_down, or the
 * fallback the CPU, its OS or UARCHCOPY_ISA leaves), from 64 bytes, where
 * both vector loops copy. */
#include "stand_in.h"

#include "copy_rule.h"

#include <stddef.h>
#include <stdint.h>

/* uc_libc_stand_in, which uc_libc_memmove holds at first; the loop. */
static void *(*rep_movsb)(void *dst, const void *src, uc_size_t n), *(*descending)(void *dst, const void *src, uc_size_t n);

static void *stand_in(void *dst, const void *src, uc_size_t n)
{
	if ((uintptr_t)dst - (uintptr_t)src < n && n >= 64 && descending)
		return descending(dst, src, n);
	return rep_movsb(dst, src, n);
}

const char *stand_in_install(void)
{
	int s = uc_rule_runs(UC_STRATEGY_AVX512_DOWN, 4096);
	descending = s == UC_STRATEGY_AVX512_DOWN ? uc_copy_avx512_down
		     : s == UC_STRATEGY_AVX2_DOWN ? uc_copy_avx2_down
						  : NULL;
	if (uc_libc_memmove != stand_in)
		rep_movsb = uc_libc_memmove;
	uc_libc_memmove = stand_in;
	return descending == uc_copy_avx512_down ? "avx512_down" : descending ? "avx2_down" : "down";
}
