#include "routines.h"

#include "copy_rule.h"

#include <string.h>

__attribute__((noinline)) void *rep_movsb(void *dst, const void *src, size_t n)
{
	void *ret = dst;
	__asm__ __volatile__("rep movsb" : "+D"(dst), "+S"(src), "+c"(n)::"memory");
	return ret;
}

/* The C library's own routines, called through these pointers, as
 * uc_memcpy is through its own: a program's call reaches either through
 * its PLT's one jump. A wrapper function around them would charge its
 * call and return to the C library alone, a large share of a short
 * copy's time (measured: see
 * docs/notebook/comment-figures-2026-12.md#the-c-librarys-routines-called-through-pointers).
 * Other translation units see only the pointers' names, so no call is
 * bound to the routine at compile time. */
copy_fn const libc_copy = memcpy;
copy_fn const libc_move = memmove;

static const struct {
	int code;
	copy_fn fn;
	int isa;
} routines[] = {
#define ROUTINE(code, fn, isa, ...) {code, fn, isa},
	UC_STRATEGY_ROUTINES(ROUTINE)
#undef ROUTINE
};

static const struct {
	const char *name;
	size_t min_n, max_n;
} strategies[UC_N_STRATEGIES] = {
#define STRATEGY(code, name, min_n, max_n, isa) [code] = {name, min_n, max_n},
	UC_STRATEGIES(STRATEGY)
#undef STRATEGY
};

copy_fn strategy_routine(int code)
{
	for (size_t i = 0; i < sizeof routines / sizeof *routines; i++)
		if (routines[i].code == code)
			return routines[i].fn;
	return uc_copy_forward;
}

const char *strategy_label(int code)
{
	return UC_IS_STRATEGY(code) ? strategies[code].name : "?";
}

int strategy_timed(int code, size_t n)
{
	static int isa = -1;
	if (isa < 0)
		isa = UC_ISA_ENABLED();
	for (size_t i = 0; i < sizeof routines / sizeof *routines; i++)
		if (routines[i].code == code)
			return routines[i].isa <= isa && n >= strategies[code].min_n && n <= strategies[code].max_n;
	return 0;
}
