/* The probe's view of one flavor: built once per flavor against that
 * flavor's copy_rule.h; the Makefile then renames its symbols (flavor.h). */
#include "flavor.h"

#include "../derive/derive.h"
#include "copy_rule.h"

#define ROUTINE(code, fn, isa) {code, fn, isa},
static const struct probe_routine routines[] = {UC_STRATEGY_ROUTINES(ROUTINE)};
#undef ROUTINE

static int machine_isa(void)
{
	return UC_ISA_ENABLED();
}

/* Installs a table that gives every length and distance to one strategy,
 * with forward_aligned's head aligned to PROBE_ALIGN_DST. A table of
 * forward alone would be the baseline, which the dispatch sends forward
 * before it reads the table; under a measured table a forward copy reads
 * it, so forward's table gives n = 0, which the probe never times, to
 * small. */
static void force_strategy(int code)
{
	struct uc_rule r = {.zero_mod = 4096,
			    .align_dst = PROBE_ALIGN_DST,
			    .n_bands = 1,
			    .status = UC_RULE_FORCED,
			    .entry = "",
			    .source = "",
			    .reason = "the probe"};
	struct uc_band *b = r.bands;
	if (code == UC_STRATEGY_FORWARD) {
		b->hi = 0;
		for (int c = 0; c < UC_N_CLASSES; c++)
			b->strategy[c] = UC_STRATEGY_SMALL;
		b++, r.n_bands++;
	}
	b->hi = (uc_size_t)-1;
	for (int c = 0; c < UC_N_CLASSES; c++)
		b->strategy[c] = (unsigned char)code;
	uc_rule_install(&r);
}

/* The copy the table dispatches: memmove where the flavor has one, since
 * the drop-in library serves memcpy with it too. */
#ifdef UC_HAS_MEMMOVE
#define TABLE_COPY uc_memmove
#else
#define TABLE_COPY uc_memcpy
#endif

const struct probe_flavor probe_flavor = {UC_FLAVOR, routines, sizeof routines / sizeof *routines, machine_isa,
					  force_strategy, TABLE_COPY};
