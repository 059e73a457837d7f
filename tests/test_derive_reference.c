/* Harm and ties judged against the flavor's reference (derive_cost,
 * against_reference; derive/grid.c, judged_against) on reference_tie.csv,
 * where strategy libc, the user flavor's reference, ties rep movsb at 8
 * and 16 KiB and beats the descending copy at some distances of the
 * elsewhere class from 64 KiB, where the descending copy beats rep movsb:
 * against the reference the elsewhere class copies by libc from 64 KiB,
 * and 8..16 KiB, where a tree may cost more than the noise, by forward;
 * against rep movsb, the control, by down from 64 KiB. */
#include "test_derive.h"

static void judged(int against_reference)
{
	struct derive_cost cost = {.band_ticks = 0.8, .multiple = 1, .against_reference = against_reference};
	if (!derive_charged("reference_tie.csv", &cost))
		return;
	const char *how = against_reference ? "against the reference" : "against rep movsb";
	int from64k = against_reference ? STRATEGY_LIBC : DOWN;
	check(rule_choice(&rule, 65536, 1500) == from64k && rule_choice(&rule, 1 << 20, 500) == from64k,
	      "%s 64 KiB in the elsewhere class copies by %s, not %s", how, strategy_name[rule_choice(&rule, 65536, 1500)],
	      strategy_name[from64k]);
	check(rule_choice(&rule, 16384, 1500) == F && rule_choice(&rule, 8192, 500) == F,
	      "%s the tie at 16 KiB copies by %s, not forward", how, strategy_name[rule_choice(&rule, 16384, 1500)]);
}

void derive_reference(void)
{
	about("harm and ties judged against the reference");
	judged(1);
	about("harm and ties judged against rep movsb");
	judged(0);
}
