/* The derivation on each recorded table of tests/fixtures/ (written by
 * make_fixtures.lua): the class bounds, bands and choices it must find. */
#include "test_derive.h"

#include <string.h>

/* The distance classes: stalls above and below the source, and none. */
static void fixtures_classes(void)
{
	if (derive("zen2_like.csv")) {
		bounds(31, 0, DERIVE_NOISE_FLOOR, 0);
		bands(2, 1.05);
		check(rule.bands[1].lo == 64, "the second band starts at %u, want 64 where the stall does",
		      rule.bands[1].lo);
		check(strstr(rule.note, "1..31 bytes above") != NULL, "the note does not give the above class");
		choose(16, 5, F);
		choose(63, 5, F);
		choose(64, 1, DOWN);
		choose(64, 31, DOWN);
		choose(64, 32, F);
		choose(8192, 17, DOWN);
		choose(1048576, 31, DOWN);
		choose(8192, 0, F);
		choose(8192, 2048, F);
		choose(8192, 4095, F);
	}
	if (derive("length_stall.csv")) {
		bounds(31, 0, DERIVE_NOISE_FLOOR, 0);
		bands(3, 1.05);
		for (int i = 0; i < rule.n_bands; i++)
			check(rule.bands[i].strategy[CLASS_ABOVE] != DOWN || rule.bands[i].hi < 1024,
			      "band %u.. goes down above the source past 1 KiB", rule.bands[i].lo);
		choose(40, 5, F);
		choose(64, 5, DOWN);
		choose(384, 31, DOWN);
		choose(384, 100, F);
		choose(512, 5, F);
		choose(1024, 5, F);
		choose(65536, 1, F);
	}
	if (derive("below_stall.csv")) {
		bounds(0, 64, DERIVE_NOISE_FLOOR, 0);
		bands(2, 1.05);
		choose(63, 4095, F);
		choose(64, 4095, DOWN);
		choose(8192, 4032, DOWN);
		choose(8192, 4031, F);
		choose(8192, 31, F);
		choose(8192, 0, F);
		choose(1048576, 4064, DOWN);
	}
	if (derive("no_stall.csv")) {
		bounds(0, 0, DERIVE_NOISE_FLOOR, 0);
		baseline();
		bands(1, 1.0);
	}
}

/* Which strategy a class and a band take, against the noise. */
static void fixtures_strategies(void)
{
	/* A class whose own best copy is within the noise of the elsewhere
	 * class's keeps the elsewhere copy: the band then needs no distance. */
	if (derive("class_tie.csv")) {
		bounds(0, 0, DERIVE_NOISE_FLOOR, 0);
		choose(1024, 0, DOWN);
		choose(1024, 100, DOWN);
		choose(8192, 0, DOWN);
		for (int i = 0; i < rule.n_bands; i++)
			check(rule.bands[i].strategy[CLASS_ZERO] == rule.bands[i].strategy[CLASS_ELSEWHERE],
			      "band %u.. copies d = 0 its own way on a difference within the noise", rule.bands[i].lo);
	}
	if (derive("small_win.csv")) {
		bounds(0, 0, DERIVE_NOISE_FLOOR, 0);
		bands(2, 1.05);
		check(rule.bands[0].hi == 32, "the first band ends at %u, want 32, small's last length", rule.bands[0].hi);
		choose(1, 0, SMALL);
		choose(16, 5, SMALL);
		choose(32, 2048, SMALL);
		choose(32, 4095, SMALL);
		choose(33, 5, F);
		choose(8192, 5, F);
	}
	/* The masked copy of up to 256 bytes, forged faster at every length
	 * it copies: its band runs from 0 to its last length. */
	if (derive("masked_wide_win.csv")) {
		choose(1, 5, STRATEGY_AVX512_MASKED_WIDE);
		choose(64, 4095, STRATEGY_AVX512_MASKED_WIDE);
		choose(256, 2048, STRATEGY_AVX512_MASKED_WIDE);
		choose(384, 5, F);
	}
	/* The prefetching loop, forged as fast as rep movsb below 1 KiB and
	 * faster from it to 16 KiB: a band of it there, forward on either
	 * side. */
	if (derive("prefetch_win.csv")) {
		choose(512, 5, F);
		choose(1024, 5, STRATEGY_AVX512_PREFETCH);
		choose(16384, 2048, STRATEGY_AVX512_PREFETCH);
		choose(65536, 5, F);
	}
	/* A copy of the middle lengths only (avx512_medium, forged at 33..512), faster
	 * from 65: its band runs from there to its last length. */
	if (derive("medium_win.csv")) {
		choose(64, 5, F);
		choose(65, 5, STRATEGY_AVX512_MEDIUM);
		choose(128, 2048, STRATEGY_AVX512_MEDIUM);
		choose(512, 4095, STRATEGY_AVX512_MEDIUM);
		choose(513, 5, F);
		choose(1024, 5, F);
	}
	/* The same, with the Zen 2 stall at d = 1..20 from 1 KiB, and the
	 * descending copy 6% faster than avx512_medium at those distances at
	 * 65..512 bytes. Charged as a measured band of 2 ticks a call (a Zen 4
	 * guest's probe measured 1.75), a test of the distance costs every
	 * call of 65..512 bytes, which take a few ticks, more than the class
	 * saves there (derive/fit.c, band): avx512_medium at every distance;
	 * from 1 KiB the class pays for its test. Charged nothing for the
	 * test, 65..512 took down in the class too. */
	static const struct derive_cost two_ticks = {.band_ticks = 2.0, .multiple = 1, .measured = 1};
	if (derive_charged("short_class.csv", &two_ticks)) {
		check(rule.above_max == 20, "above_max %u, want 20", rule.above_max);
		choose(128, 5, STRATEGY_AVX512_MEDIUM);
		choose(128, 100, STRATEGY_AVX512_MEDIUM);
		choose(512, 20, STRATEGY_AVX512_MEDIUM);
		choose(4096, 5, DOWN);
		choose(4096, 100, F);
	}
	/* Every copy within 2% of rep movsb, with passes 4% apart: no gain
	 * survives the noise the spread sets, so the baseline. */
	if (derive("noisy.csv")) {
		bounds(0, 0, 0.04, 0);
		baseline();
		bands(1, 1.05);
	}
	/* The coarse middle holds misaligned destinations too, so the aligned
	 * head's gain is the elsewhere class's, and no distance needs a class:
	 * at d = 0, where the head has nothing to align, forward_aligned takes
	 * 88.5 ticks at 8192 bytes to forward's 88.0, a tie that a test of the
	 * distance on every call of the band would cost more than it keeps. */
	if (derive("align_win.csv")) {
		bounds(0, 0, DERIVE_NOISE_FLOOR, PROBE_ALIGN_DST);
		bands(2, 1.05);
		choose(256, 5, F);
		choose(512, 100, F);
		choose(1024, 5, FA);
		choose(1024, 100, FA);
		choose(65536, 4090, FA);
		choose(8192, 0, FA);
	}
}

/* Class zero widened, the near class, and harm done nowhere. */
static void fixtures_zero_and_near(void)
{
	/* Mutually aligned buffers copy their own way: class zero widens to
	 * every multiple of 32, forward there, down at the other distances. */
	if (derive("aligned_fast.csv")) {
		check(rule.zero_mod == 32, "zero_mod %d, want 32", rule.zero_mod);
		choose(1024, 0, F);
		choose(1024, 64, F);
		choose(4096, 160, F);
		choose(1024, 33, DOWN);
		choose(4096, 65, DOWN);
		check(rule.worst_regret <= 1.05, "worst regret %.3f, want <= 1.05", rule.worst_regret);
	}

	/* Down wins by far on the whole of 128..512 bytes but loses 20% at two
	 * distances no above or below class can hold: the table takes rep
	 * movsb there rather than make any copy slower than the baseline (it
	 * may keep down where a class excludes them, as class zero widened to
	 * the multiples of 16 does). */
	if (derive("near_stall.csv")) {
		check(rule.above_max == 31 && rule.near_max == 65, "above_max %u, near_max %u, want 31 and 65",
		      rule.above_max, rule.near_max);
		choose(256, 5, DOWN);
		choose(256, 31, DOWN);
		choose(256, 32, F);
		choose(256, 65, F);
		choose(256, 128, DOWN);
		choose(512, 2048, DOWN);
		choose(4096, 40, F);
		check(rule.worst_regret <= 1 + DERIVE_NOISE_FLOOR, "worst regret %.3f, want within the noise of 1",
		      rule.worst_regret);
	}
	if (derive("aligned_stall.csv")) {
		check(rule.above_max == 40, "above_max %u, want 40", rule.above_max);
		choose(4096, 32, DOWN);
		choose(4096, 8, DOWN);
		check(rule.worst_regret < 2, "worst regret %.3f: a stalled point left to rep movsb", rule.worst_regret);
	}
	if (derive("harm_somewhere.csv")) {
		choose(256, 40, F);
		choose(512, 63, F);
		check(rule.worst_vs_baseline <= 1 + DERIVE_NOISE_FLOOR,
		      "worst against the baseline %.3f, want within the noise of 1", rule.worst_vs_baseline);
	}
}

/* What a band costs and what it must win to be kept. */
static void fixtures_bands(void)
{
	/* Streaming stores win past the caches, where the probe times few
	 * distances, and single lengths below 64 bytes bid for more bands than
	 * a table has: every length weighs alike, so the streaming band is
	 * bought (counted point by point, it was not). */
	if (derive("streaming_win.csv")) {
		choose(4194304, 2061, STRATEGY_AVX2_NT);
		choose(8388608, 0, STRATEGY_AVX2_NT);
		choose(8388608, 4095, STRATEGY_AVX2_NT);
		choose(2097152, 2061, F);
		choose(65536, 2061, F);
		check(rule.worst_vs_baseline <= 1 + DERIVE_NOISE_FLOOR,
		      "worst against the baseline %.3f, want within the noise of 1", rule.worst_vs_baseline);
	}

	/* A difference under the noise is no reason for a split: charged
	 * what the dispatch costs, 32..256 bytes (where the vector copies
	 * start) are one band; charged only the flat price, the same table
	 * takes a band for each turn. */
	const struct derive_cost uncharged = {.band_ticks = DERIVE_BAND_TICKS_DEFAULT};
	if (derive("noise_bands.csv")) {
		int first = -1;
		for (int i = 0; i < rule.n_bands; i++)
			if (rule.bands[i].lo <= 40 && rule.bands[i].hi >= 40)
				first = i;
		check(first >= 0 && rule.bands[first].lo == 32 && rule.bands[first].hi == 256,
		      "32..256 bytes are not one band");
		choose(100, 2048, rule_choice(&rule, 33, 2048));
		check(rule_choice(&rule, 33, 2048) == STRATEGY_AVX2_FORWARD || rule_choice(&rule, 33, 2048) == STRATEGY_AVX2_DOWN,
		      "33 bytes copy with %s, not a vector copy", strategy_name[rule_choice(&rule, 33, 2048)]);
		choose(16, 2048, F);
		choose(4096, 2048, F);
		check(rule.n_bands == 3, "%d bands, want 3", rule.n_bands);
	}
	if (derive_charged("noise_bands.csv", &uncharged))
		check(rule.n_bands >= 6, "uncharged, %d bands: the fixture no longer shows the noise a charge removes",
		      rule.n_bands);
	/* A range the band trials kept whole (derive.h, struct length_range):
	 * no band starts inside it, and the lengths there take one copy. The
	 * same table, free, splits inside it. */
	if (derive("noise_bands.csv")) {
		int inside = 0;
		for (int i = 1; i < rule.n_bands; i++)
			inside |= rule.bands[i].lo > 0 && rule.bands[i].lo <= 240;
		check(inside, "the fixture no longer splits in 1..240, so the range below tests nothing");
	}
	struct derive_cost whole = {.band_ticks = DERIVE_BAND_TICKS_DEFAULT, .multiple = 1, .n_unsplit = 1};
	whole.unsplit[0] = (struct length_range){0, 240};
	if (derive_charged("noise_bands.csv", &whole)) {
		for (int i = 1; i < rule.n_bands; i++)
			check(rule.bands[i].lo > 240, "a band starts at %u, inside 0..240, which was kept whole",
			      rule.bands[i].lo);
		check(rule_choice(&rule, 16, 2048) == rule_choice(&rule, 240, 2048),
		      "16 and 240 bytes copy with %s and %s inside one band", strategy_name[rule_choice(&rule, 16, 2048)],
		      strategy_name[rule_choice(&rule, 240, 2048)]);
		check(strstr(rule.note, "No band edge inside 0..240") != NULL, "the note does not name the range");
	}
	/* A real win past the small lengths keeps its band, charged. */
	if (derive("wide_win.csv")) {
		choose(16384, 1, DOWN);
		choose(16384, 63, DOWN);
		choose(16384, 64, F);
		choose(16384, 2048, F);
		choose(8192, 5, F);
		choose(65536, 5, F);
		check(rule.above_max == 63, "above_max %u, want 63", rule.above_max);
	}
}

void derive_fixtures(void)
{
	fixtures_classes();
	fixtures_strategies();
	fixtures_zero_and_near();
	fixtures_bands();
}
