/* The static library's stand-in for the C library's memmove (stand_in.h).
 *
 * A static program has no other memmove for the library to defer to, so
 * uc_libc_memmove keeps uc_libc_stand_in (libc.tpi): one rep movsb, or,
 * where the destination lies inside the source's range, the descending
 * copy of general registers, 8 bytes a step. That copy took 7.5 to 14
 * times static glibc 2.36's memmove at 4 KiB to 1 MiB, the destination 3,
 * 64 and 4096 bytes above the source (755 against 80 ticks a call at
 * 4 KiB, d = 3; a Zen 5 guest). Here that case takes the descending vector
 * loop instead, the widest the installed rule may run (uc_rule_runs gives
 * avx512_down, or the fallback the CPU, its OS or UARCHCOPY_ISA leaves),
 * from 64 bytes, where both vector loops copy. */
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
