/* summary.md: a probe run told for people: the machine, the rule, the
 * method, how the rule settled over the passes, the ticks at a few
 * points and the points timed faster at a longer length. --dry-run
 * prints it too. */
#include "evidence.h"
#include "evidence_choice.h"

#include "../../common/util.h"

#include <stdio.h>

static const unsigned int shown_lengths[] = {8, 32, 64, 256, 1024, 4096, 65536, 1048576};
static const unsigned int shown_distances[] = {0, 1, 16, 31, 32, 64, 4064, 4095};
#define N_SHOWN_D (sizeof shown_distances / sizeof *shown_distances)
#define N_SHOWN_L (sizeof shown_lengths / sizeof *shown_lengths)

/* "0..32 small; 33..63 forward; 64.. forward, above down": each band's
 * strategy elsewhere, then the classes that differ from it. */
void rule_text(const struct derived_rule *r, char *out, size_t size)
{
	size_t len = 0;
	out[0] = '\0';
	for (int i = 0; i < r->n_bands && len < size; i++) {
		const struct band *b = &r->bands[i];
		char hi[16] = "";
		if (b->hi != BAND_UNBOUNDED)
			snprintf(hi, sizeof hi, "%u", b->hi);
		len += (size_t)snprintf(out + len, size - len, "%s%u..%s %s", i ? "; " : "", b->lo, hi,
					strategy_name[b->strategy[CLASS_ELSEWHERE]]);
		for (int c = 0; c < CLASS_ELSEWHERE && len < size; c++)
			if (rule_class_live(r, c) && b->strategy[c] != b->strategy[CLASS_ELSEWHERE])
				len += (size_t)snprintf(out + len, size - len, ", %s %s", class_names[c],
							strategy_name[b->strategy[c]]);
	}
}

static void md_plain(char *out, const char *s)
{
	size_t i = 0;
	for (; s[i] && i < ARCHIVE_TEXT_MAX; i++)
		out[i] = s[i] == '|' || s[i] == '`' || s[i] == '<' || s[i] == '>' ? '?' : s[i];
	out[i] = '\0';
}

static void summary_head(struct buf *b, const struct entry_choice *entry, const struct run_facts *run)
{
	const struct cpu_info *c = run->cpu;
	const struct derived_rule *r = run->rule;
	char sig[96];
	cpu_signature_text(c, sig, sizeof sig);
	buf_printf(b, "# %s, %s flavor: a table of %d band%s\n\n", entry->name, run->archive->flavor, r->n_bands,
		   r->n_bands == 1 ? "" : "s");
	buf_printf(b, "Measured %s by the probe (probe/, version %d), imported by `uarchgen import`.%s\n\n",
		   run->archive->date, run->archive->probe_version,
		   entry->is_new ? " The entry is new: no CPUID range of the database held this CPU." : "");
	buf_printf(b, "| | |\n|---|---|\n");
	char brand[ARCHIVE_TEXT_MAX + 1], hypervisor[ARCHIVE_TEXT_MAX + 1];
	md_plain(brand, c->brand[0] ? c->brand : "(no brand string)");
	md_plain(hypervisor, c->hypervisor);
	buf_printf(b, "| CPU | %s |\n| CPUID | %s (signature 0x%08x) |\n", brand, sig, c->signature);
	buf_printf(b, "| features | ERMS %s, FSRM %s, AVX2 %s, AVX-512F %s |\n", c->erms ? "yes" : "no",
		   c->fsrm ? "yes" : "no", c->avx2 ? "yes" : "no", c->avx512f ? "yes" : "no");
	if (c->guest)
		buf_printf(b,
			   "| hypervisor | **%s guest.** The CPUID family and model are what the hypervisor presents, "
			   "which need not be the host's core; timings include virtualisation. |\n",
			   hypervisor);
	else
		buf_printf(b, "| hypervisor | none reported (bare metal) |\n");
	/* The archive's text fields passed text_problem: one printable line,
	 * but a '|' would still split a Markdown cell; so would the CPU's. */
	char kernel[ARCHIVE_TEXT_MAX + 1], microcode[ARCHIVE_TEXT_MAX + 1], platform[ARCHIVE_TEXT_MAX + 1];
	md_plain(kernel, run->archive->kernel);
	md_plain(microcode, run->archive->microcode);
	md_plain(platform, run->archive->platform);
	buf_printf(b, "| kernel | %s |\n| microcode | %s |\n| platform (DMI) | %s |\n", kernel, microcode, platform);
	char above[32] = "empty", near[32] = "empty", below[32] = "empty", zero[48] = "d = 0";
	if (r->zero_mod < 4096)
		snprintf(zero, sizeof zero, "every multiple of %d, d = 0 included", r->zero_mod);
	if (r->above_max)
		snprintf(above, sizeof above, "d = 1..%u", r->above_max);
	if (r->near_max)
		snprintf(near, sizeof near, "d = %u..%u", r->above_max + 1, r->near_max);
	if (r->below_max)
		snprintf(below, sizeof below, "d = %u..4095", 4096 - r->below_max);
	buf_printf(b, "\n## Rule\n\nClasses, by d = (dst - src) mod 4096, in this order: zero (%s); above: %s; "
		      "near: %s; below: %s; elsewhere: every other d. align_dst %d.\n\n",
		   zero, above, near, below, r->align_dst);
	buf_printf(b, "| lengths | zero | above | near | below | elsewhere |\n|---|---|---|---|---|---|\n");
	for (int i = 0; i < r->n_bands; i++) {
		const struct band *band = &r->bands[i];
		char hi[16] = "";
		if (band->hi != BAND_UNBOUNDED)
			snprintf(hi, sizeof hi, "%u", band->hi);
		buf_printf(b, "| %u..%s", band->lo, hi);
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			buf_printf(b, " | %s", strategy_name[band->strategy[c]]);
		buf_printf(b, " |\n");
	}
	buf_printf(b, "\n%s\n\n", r->note);
	buf_printf(b,
		   "**Regret** (the time of the table's choice over the best measured strategy, at every measured "
		   "point): worst %.3f (%u bytes at d = %u), 99th percentile %.3f, median %.3f; above 1.05 at %zu "
		   "of %zu points. Against the baseline (one forward rep movsb): worst %.3f.\n\n",
		   r->worst_regret, r->worst_length, r->worst_distance, r->p99_regret, r->median_regret, r->over_5pct,
		   r->points, r->worst_vs_baseline);
}

/* The method's first item: the routines timed, and how each was run. */
static void method_routines(struct buf *b, const struct run_facts *run)
{
	int timed[N_COPY_STRATEGIES] = {0};
	for (size_t i = 0; i < run->table->n; i++)
		timed[run->table->rows[i].strategy] = 1;
	int v = run->archive->probe_version;
	if (v >= 10)
		buf_printf(b, "## Method\n\n- Routines: the generated strategies of the %s flavor that this CPU runs, "
			      "each run through its own entry, compiled as gen writes a table that gives it every "
			      "length and distance (the entry, memmove's overlap compares where the flavor's entry is "
			      "memmove%s, then a jump to the strategy's routine%s%s), so that each pays the path a "
			      "compiled tree's leaf takes to it:",
			   run->archive->flavor,
			   v >= MEMMOVE_GUARD_VERSION ? " and the strategy goes up or down, none before one that loads "
							"everything before it stores"
						      : "",
			   v >= PIECES_VERSION ? ", or, at a length one of its pieces holds (plan/pieces.h), to that "
						 "piece, past the body's own compares"
					       : "",
			   v >= LEAVES_FALL_VERSION ? "; a short copy that a patched entry holds (plan/layout.h) with "
						       "its body, or its piece's moves, right there instead, no jump, as "
						       "a compiled tree lays out a leaf's moves after its compare"
			   : v >= FALLS_VERSION	     ? "; a short copy that a patched entry holds (plan/layout.h) with "
						       "its body, or its piece's moves, right there instead, no jump, as "
						       "a compiled tree lays out its second leaf's moves after its compare"
			   : v >= HELD_COPIES_VERSION ? "; a short copy that a patched entry holds (plan/layout.h) with "
						       "its body right there instead, no jump"
						     : "");
	else if (v >= 2)
		buf_printf(b, "## Method\n\n- Routines: the generated strategies of the %s flavor that this CPU runs, "
			      "each run through the flavor's table copy (`uc_memmove`, or `uc_memcpy` where the flavor "
			      "has no memmove) under a table that gives it every length and distance, so that a time "
			      "is that of the body the dispatch runs, dispatch included:",
			   run->archive->flavor);
	else
		buf_printf(b, "## Method\n\n- Routines: the generated strategies of the %s flavor that this CPU runs, "
			      "each called alone:",
			   run->archive->flavor);
	for (int k = 0, first = 1; k < N_COPY_STRATEGIES; k++)
		if (timed[k]) {
			/* Versions 2 to 9 ran the strategies' bodies through the table
			 * copy, not their own routines. */
			buf_printf(b, "%s `%s%s`", first ? "" : ",", v >= 2 && v < 10 ? "" : "uc_copy_",
				   strategy_name[k]);
			first = 0;
		}
	buf_printf(b, " (common/strategies.h says what each does; forward, one `rep movsb`, is the baseline; "
		      "a strategy that aligns brings dst to a multiple of %d bytes)", PROBE_ALIGN_DST);
	unsigned int streams_from[N_COPY_STRATEGIES] = {0};
	for (size_t i = 0; i < run->table->n; i++) {
		const struct row *w = &run->table->rows[i];
		if (strategy_catalogue[w->strategy].streams && (!streams_from[w->strategy] || w->length < streams_from[w->strategy]))
			streams_from[w->strategy] = w->length;
	}
	for (int k = 0; k < N_COPY_STRATEGIES; k++)
		if (streams_from[k])
			buf_printf(b, "; `%s%s`, whose stores bypass the caches, from %u bytes",
				   v >= 2 && v < 10 ? "" : "uc_copy_", strategy_name[k], streams_from[k]);
	buf_printf(b, ".\n");
}

/* The method's other items: the points, the timer and the derivation. */
static void method_points(struct buf *b, const struct run_facts *run)
{
	/* The longest length, and the distances timed there: runs since the
	 * probe reached past 1 MiB time those lengths at a sparse set. */
	unsigned int longest = 0;
	unsigned char at_longest[4096] = {0};
	size_t sparse = 0;
	for (size_t i = 0; i < run->table->n; i++)
		if (run->table->rows[i].length > longest)
			longest = run->table->rows[i].length;
	for (size_t i = 0; i < run->table->n; i++) {
		const struct row *w = &run->table->rows[i];
		if (w->length == longest && w->distance < 4096 && !at_longest[w->distance])
			at_longest[w->distance] = 1, sparse++;
	}
	buf_printf(b, "- Points: %zu, at every length 1..64 and in steps to ", run->table->n);
	if (longest % 1048576 == 0)
		buf_printf(b, "%u MiB", longest / 1048576);
	else
		buf_printf(b, "%u bytes", longest);
	if (longest > 1048576)
		buf_printf(b, " (past 1 MiB at %zu distances)", sparse);
	buf_printf(b,
		   "; every distance in 0..160 and "
		   "3936..4095 with a coarse middle at the lengths that place the class bounds, a thinner set at "
		   "the others. The source is page-aligned, so a point's destination misalignment is d mod 64; "
		   "the coarse distances sit off multiples of 64 to cover misalignments.\n"
		   "- Timer: `rdtsc` between `lfence`s; the copies of a point's strategies timed one after the other; "
		   "many copies per sample, rotating over lanes 256 bytes apart (mod 4 KiB) so that a call's loads "
		   "do not meet the previous call's stores; the minimum of %d samples per pass and over the "
		   "passes. A time is a call's whole cost (an empty call costs %.1f ticks).\n"
		   "- Derivation (derive/derive.c): a difference under %.1f%% (the larger of %.0f%% and the median "
		   "spread across passes of the points of %d ticks or more) is a tie, and a tie goes to the "
		   "baseline; the bands minimise the summed log regret, a regret beyond that weighing ten times "
		   "and a loss to the baseline thirty; no cell takes a strategy slower than the baseline by more "
		   "than the tie threshold at any of its points.\n",
		   run->archive->samples, run->archive->m.overhead, run->rule->noise * 100,
		   DERIVE_NOISE_FLOOR * 100, DERIVE_NOISE_MIN_TICKS);
}

static void summary_method(struct buf *b, const struct run_facts *run)
{
	method_routines(b, run);
	method_points(b, run);
}

static void summary_stability(struct buf *b, const struct run_facts *run)
{
	buf_printf(b, "\n## Stability\n\n%d passes; the table derived from the passes so far, after each:\n\n"
		      "| passes | above_max | near_max | below_max | zero_mod | bands | worst regret |\n"
		      "|---|---|---|---|---|---|---|\n",
		   run->archive->m.passes);
	for (int k = 0; k < run->archive->m.passes && k < MAX_PASSES; k++) {
		char text[RULE_TEXT_MAX];
		rule_text(&run->pass_rule[k], text, sizeof text);
		const struct derived_rule *p = &run->pass_rule[k];
		buf_printf(b, "| 1..%d | %u | %u | %u | %d | %s | %.3f |\n", k + 1, p->above_max, p->near_max,
			   p->below_max, p->zero_mod, text, p->worst_regret);
	}
	buf_printf(b,
		   "\nThe rule above is derived from the minimum over all passes. Spread of a point's pass minima "
		   "(the second lowest over the lowest, less one), over every point: median %.1f%%, worst %.1f%%.\n",
		   run->median_spread * 100, run->worst_spread * 100);
}

static void summary_ticks(struct buf *b, const struct run_facts *run)
{
	buf_printf(b, "\n## Ticks per copy: the table's choice / rep movsb\n\n| length |");
	for (size_t k = 0; k < N_SHOWN_D; k++)
		buf_printf(b, " d=%u |", shown_distances[k]);
	buf_printf(b, "\n|---|");
	for (size_t k = 0; k < N_SHOWN_D; k++)
		buf_printf(b, "---|");
	buf_printf(b, "\n");
	for (size_t i = 0; i < N_SHOWN_L; i++) {
		buf_printf(b, "| %u |", shown_lengths[i]);
		for (size_t k = 0; k < N_SHOWN_D; k++) {
			int s = rule_choice(run->rule, shown_lengths[i], shown_distances[k]);
			double c = evidence_ticks_at(run->table, s, shown_lengths[i], shown_distances[k]);
			double f = evidence_ticks_at(run->table, STRATEGY_FORWARD, shown_lengths[i], shown_distances[k]);
			if (c >= 0 && f >= 0)
				buf_printf(b, " %.0f %s / %.0f |", c, strategy_name[s], f);
			else
				buf_printf(b, " - |");
		}
		buf_printf(b, "\n");
	}
}

char *evidence_summary(const struct entry_choice *entry, const struct run_facts *run, const char *run_id)
{
	struct buf b = {0};
	summary_head(&b, entry, run);
	summary_method(&b, run);
	summary_dispatch(&b, run);
	summary_stability(&b, run);
	summary_ticks(&b, run);
	summary_regime(&b, run);
	if (run_id)
		buf_printf(&b,
			   "\nEvery timing, as the probe wrote it, with the machine's CPUID leaves: [" ARCHIVE_FILE "](" ARCHIVE_FILE ") "
			   "(`uarchgen import --dry-run` derives the table from it again). The table's choice and its regret at "
			   "every point: [choice.csv](choice.csv), drawn over length and distance: "
			   "![the table](table.png) (by [plot.gp](plot.gp)). Run id `%s`.\n",
			   run_id);
	return b.data;
}
