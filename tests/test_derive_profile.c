/* The fit at the size profile's weights (derive/fit_weights.c,
 * length_weights) on profile_win.csv: the table it fits copies 8 and 16
 * bytes by small in one band, where each table fitted with every length
 * alike splits at 9 bytes; the model, which walks the random-size
 * workload through each compiled tree, times it faster beyond the noise
 * than each; and the search ranks it where the run fitted it (probe
 * version 29). */
#include "test_derive.h"

#include "model.h"
#include "search.h"

#include <stdlib.h>

/* Trees of 1, 2, 4 and 8 bands as a run measures them: 0.38 ticks a
 * compare and 3.6 a misprediction (model_costs_of). */
static const struct dispatch_run measured = {.measured = 1, .searched = 1, .chosen = CHOSE_BASELINE,
					     .tables = {{10, 10}, {11, 10.3}, {12.5, 10.7}, {14, 11}}};

/* The table fitted to t at cost, and its model; 0 where both were made. */
static int fitted(const struct timings *t, const struct derive_cost *cost, struct derived_rule *r,
		  struct model_figures *m)
{
	struct model_costs mc = model_costs_of(&measured);
	return derive_rule(t, cost, r) || rule_model(t, r, &mc, 0, m);
}

/* At 8 and 16 bytes small, in one band: a split at 9 bytes would
 * mispredict on 4 calls in 10 of the profile, more than down's 10% at
 * 9..32 buys. Every length alike, the fit splits there at each multiple of
 * the band cost; the model times the profile's table faster beyond the
 * noise than each. */
static void weighed(const struct timings *t)
{
	about("the fit at the size profile's weights");
	struct model_costs mc = model_costs_of(&measured);
	struct derive_cost cost = {.band_ticks = dispatch_band_ticks(&measured),
				   .multiple = 1,
				   .measured = 1,
				   .weighting = LENGTHS_PROFILE,
				   .compare_ticks = mc.compare_ticks,
				   .mispredict_ticks = mc.mispredict_ticks};
	struct derived_rule *alike = malloc(sizeof *alike), *profile = malloc(sizeof *profile);
	struct model_figures m_alike, m_profile;
	if (!alike || !profile || fitted(t, &cost, profile, &m_profile)) {
		check(0, "profile_win.csv fits no table at the profile's weights");
		free(alike);
		free(profile);
		return;
	}
	check(rule_choice(profile, 8, 1000) == SMALL && rule_choice(profile, 16, 1000) == SMALL,
	      "at the profile's weights 8 bytes copy by %s and 16 by %s, not small",
	      strategy_name[rule_choice(profile, 8, 1000)], strategy_name[rule_choice(profile, 16, 1000)]);
	cost.weighting = LENGTHS_ALIKE;
	for (int i = 0; i < DISPATCH_CANDIDATES; i++) {
		cost.multiple = candidate_multiples[i];
		if (fitted(t, &cost, alike, &m_alike)) {
			check(0, "profile_win.csv fits no table with every length alike");
			continue;
		}
		check(m_profile.total * (1 + profile->noise) < m_alike.total,
		      "the model times the profile's table at %.3f ticks a call, not faster beyond the noise than the "
		      "table fitted with every length alike at %g times the band cost, at %.3f",
		      m_profile.total, cost.multiple, m_alike.total);
	}
	free(alike);
	free(profile);
}

/* The profile's table is ranked only where the run fitted it. */
static void ranked(const struct timings *t)
{
	about("the search: the profile's table where the run fitted it");
	struct search_entry *e = malloc(SEARCH_TABLES * sizeof *e);
	struct dispatch_run d = measured;
	int n = 0, profiles = 0;
	for (int fit = 0; e && fit < 2; fit++) {
		d.profile_fit = fit;
		if (search_rank(t, &d, e, &n)) {
			check(0, "profile_win.csv does not rank: %s", e[0].rule.note);
			break;
		}
		profiles = 0;
		for (int i = 0; i < n; i++)
			profiles += e[i].profile;
		if (fit)
			check(profiles == 1 && e[0].profile && rule_choice(&e[0].rule, 8, 1000) == SMALL,
			      "a run that fitted the profile's table does not rank it first, copying 8 bytes by small");
		else
			check(profiles == 0, "a run that did not fit the profile's table ranks %d", profiles);
	}
	free(e);
}

void derive_profile(void)
{
	struct timings t = {0};
	if (timings_read_csv(&t, "tests/fixtures/profile_win.csv")) {
		check(0, "profile_win.csv does not read");
		return;
	}
	weighed(&t);
	ranked(&t);
	timings_free(&t);
}
