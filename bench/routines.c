#include "routines.h"

#include "copy_rule.h"

#include <string.h>

__attribute__((noinline)) void *rep_movsb(void *dst, const void *src, size_t n)
{
	void *ret = dst;
	__asm__ __volatile__("rep movsb" : "+D"(dst), "+S"(src), "+c"(n)::"memory");
	return ret;
}

/* The C library's own routines, called through these pointers: a program's
 * call reaches them through its PLT's one jump, and a wrapper function
 * around them would add a call and a return that neither the program nor
 * uc_memcpy pays. Timed at 128 bytes, d = 33, on a Zen 4 guest, memmove
 * through such a wrapper took 6.50 ticks a call, 5.80 through its pointer
 * (the least of 30 rounds each). */
copy_fn const libc_copy = memcpy;
copy_fn const libc_move = memmove;

static const struct {
	int code;
	copy_fn fn;
	int isa;
} routines[] = {
#define ROUTINE(code, fn, isa) {code, fn, isa},
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
