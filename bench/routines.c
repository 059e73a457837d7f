#include "routines.h"

#include "copy_rule.h"

#include <string.h>

__attribute__((noinline)) void *rep_movsb(void *dst, const void *src, size_t n)
{
	void *ret = dst;
	__asm__ __volatile__("rep movsb" : "+D"(dst), "+S"(src), "+c"(n)::"memory");
	return ret;
}

/* Called through a volatile pointer so the compiler cannot inline it. */
static void *(*volatile libc_memcpy)(void *, const void *, size_t) = memcpy;

__attribute__((noinline)) void *libc_copy(void *dst, const void *src, size_t n)
{
	return libc_memcpy(dst, src, n);
}

copy_fn strategy_routine(int code)
{
	switch (code) {
	case UC_STRATEGY_FORWARD_ALIGNED:
		return uc_copy_forward_aligned;
	case UC_STRATEGY_DOWN:
		return uc_copy_down;
	case UC_STRATEGY_SMALL:
		return uc_copy_small;
	default:
		return uc_copy_forward;
	}
}
