#include "target.h"

#ifdef BENCH_TARGET_HEADER
#include BENCH_TARGET_HEADER
#endif

/* A flavor with vector strategies keeps its installed table under --target
 * (whether the CPU and the OS enable them is known only at run time), so
 * only a flavor whose header names the entry has a compiled table. */
#ifdef UCT_COPY_RULE_TARGET

static const struct {
	int code;
	copy_fn fn;
} routines[] = {
#define ROUTINE(code, fn, isa, ...) {code, fn},
	UCT_STRATEGY_ROUTINES(ROUTINE)
#undef ROUTINE
};

static copy_fn routine(int code)
{
	for (size_t i = 0; i < sizeof routines / sizeof *routines; i++)
		if (routines[i].code == code)
			return routines[i].fn;
	return uct_copy_forward;
}

const struct target *target(void)
{
	/* Its bounds and alignment head are immediates: it reads nothing that
	 * uct_rule_install would write, so nothing needs installing. */
	static const struct target t = {UCT_COPY_RULE_TARGET, uct_memcpy, uct_copy_strategy, routine};
	return &t;
}

#else

const struct target *target(void)
{
	return NULL;
}

#endif
