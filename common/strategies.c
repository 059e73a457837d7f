/* The catalogue of strategies.h as records, and the names of its isa
 * levels, directions and distance classes: the one array every program
 * reads a strategy's properties from. */
#include "strategies.h"

#include "rule_limits.h"

#include <stddef.h>
#include <string.h>

#define STRATEGY_RECORD(id, name, min_n, max_n, isa, letter, fallback, code, direction, streams, aligns, defers, \
			clobbers, what)                                                                             \
	{name, min_n, max_n, isa, letter, fallback, code, direction, streams, aligns, defers, clobbers, what},
const struct strategy strategy_catalogue[N_COPY_STRATEGIES] = {STRATEGIES(STRATEGY_RECORD)};
#undef STRATEGY_RECORD

#define NAME_OF(id, name) name,
const char *const isa_names[N_ISA_LEVELS] = {ISA_LEVELS(NAME_OF)};
const char *const direction_names[N_DIRECTIONS] = {DIRECTIONS(NAME_OF)};
const char *const class_names[N_DISTANCE_CLASSES] = {DISTANCE_CLASSES(NAME_OF)};
#undef NAME_OF

const struct strategy *strategy_of(int code)
{
	return code >= 0 && code < N_COPY_STRATEGIES ? &strategy_catalogue[code] : NULL;
}

int strategy_offered(int code, int isa_level, int moves)
{
	const struct strategy *s = strategy_of(code);
	return s && s->isa <= isa_level && (!s->defers || moves);
}

int strategy_named(const char *name)
{
	for (int s = 0; s < N_COPY_STRATEGIES; s++)
		if (strcmp(name, strategy_catalogue[s].name) == 0)
			return s;
	return -1;
}

int strategy_serves(int code, unsigned int n)
{
	const struct strategy *s = strategy_of(code);
	return s && n >= (unsigned int)s->min_n && (s->max_n < 0 || n <= (unsigned int)s->max_n);
}
