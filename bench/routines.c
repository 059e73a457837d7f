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

/* Called through a volatile pointer so the compiler cannot inline it. */
static void *(*volatile libc_memmove_fn)(void *, const void *, size_t) = memmove;

__attribute__((noinline)) void *libc_move(void *dst, const void *src, size_t n)
{
	return libc_memmove_fn(dst, src, n);
}

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
