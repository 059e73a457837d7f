/* summary.md's section on the dispatch: what a split cost the random-size
 * workload, and the candidate tables the probe timed on it, its band
 * trials, its small trial, its shaped trial and its classes trial
 * (derive/dispatch.h), or instead its search (evidence_search.c); then
 * the grid gate. Each part where the run's archive holds it: the
 * constants of derive/archive.h name the probe version from which each
 * does. */
#include "evidence.h"

#include "../../derive/grid_gate.h"
#include "../../derive/model.h"
#include "../../derive/repair.h"
#include "../../derive/trials.h"
#include "../../derive/variants.h"

#include "../../common/bench_grid.h"
#include "../../common/util.h"
#include "../../common/workload.h"

#include <stdio.h>
#include <string.h>

/* The small trial (from SMALL_TRIAL_VERSION), after the band trials. */
static void small_trial_section(struct buf *b, const struct run_facts *run)
{
	const struct small_trial *v = &run->archive->dispatch.small;
	const char *from = strategy_name[STRATEGY_TRIAL_FROM], *to = strategy_name[STRATEGY_TRIAL_TO];
	buf_printf(b, "\nThen the table with %s in every cell of %s (%s without its branch between 8..15 and 16..32 "
		      "bytes), against the table as derived, both compiled and timed in turns, the median of %d rounds; "
		      "%s is kept where its table was faster beyond the noise on random sizes and no slower than every "
		      "copy forward beyond it on the sorted control.\n\n",
		   to, from, from, DISPATCH_PAIRED_ROUNDS, to);
	if (!v->tried) {
		struct derive_cost cost = dispatch_cost(&run->archive->dispatch);
		struct derived_rule r;
		if (derive_rule(run->table, &cost, &r) == 0 && small_flat_cells(&r, 0))
			buf_printf(b, "Not tried: in the cells of %s, %s loses to every copy forward beyond the noise at a "
				      "point of the grid, which no cell may.\n",
				   from, to);
		else
			buf_printf(b, "The table has no cell of %s.\n", from);
		return;
	}
	buf_printf(b, "| table | random | sorted |\n|---|---|---|\n| with %s | %.2f | %.2f |\n| with %s | %.2f | %.2f |\n"
		      "| every copy forward | | %.2f |\n\n",
		   to, v->with.random, v->with.sorted, from, v->without.random, v->without.sorted, v->baseline_sorted);
	if (v->kept)
		buf_printf(b, "**Kept**: the rule copies by %s where the table as derived has %s.\n", to, from);
	else
		buf_printf(b, "Not kept: the rule copies by %s.\n", from);
}

/* The shaped trial, after the small trial. */
static void shaped_trial_section(struct buf *b, const struct shaped_trial *v)
{
	buf_printf(b, "\nThen the table the trials made of it, compiled, against every copy forward as it ships, timed in "
		      "turns, the median of %d rounds; kept where it is faster beyond the noise on random sizes and no "
		      "slower beyond it on the sorted control, as a candidate must be:\n\n"
		      "| table | random | sorted |\n|---|---|---|\n| shaped | %.2f | %.2f |\n| every copy forward | %.2f | "
		      "%.2f |\n\n%s\n",
		   DISPATCH_PAIRED_ROUNDS, v->shaped.random, v->shaped.sorted, v->baseline.random, v->baseline.sorted,
		   v->kept ? "**Kept**: the rule is the shaped table." : "Not kept: every copy forward stays.");
}

/* The classes trial (from CLASSES_TRIAL_VERSION), after the shaped trial
 * lost. */
static void classes_trial_section(struct buf *b, const struct classes_trial *v, int version)
{
	if (!v->tried) {
		buf_printf(b, "\nNo classes trial: no class of that table copies other than every copy forward.\n");
		return;
	}
	buf_printf(b, "\nThen the classes trial: that table with its zero and elsewhere cells copied forward, so that "
		      "only the classes above, near and below copy their own ways, compiled, against every copy forward "
		      "as it ships, timed in turns, the median of %d rounds; kept where it is no slower beyond the noise "
		      "on random sizes and on the sorted control, since each of its cells beat every copy forward "
		      "beyond the noise where it differs, at distances the workload seldom draws%s:\n\n"
		      "| table | random | sorted |\n|---|---|---|\n| classes | %.2f | %.2f |\n| every copy forward | "
		      "%.2f | %.2f |\n\n%s\n",
		   DISPATCH_PAIRED_ROUNDS,
		   version >= LOW_GATE_VERSION ? " (its tree tests the distance first, and a zero test of d mod zero_mod "
						 "only past one compare of the last such class's bound, probe version 20)"
					       : "",
		   v->table.random, v->table.sorted, v->baseline.random, v->baseline.sorted,
		   v->kept ? "**Kept**: the rule is the classes table." : "Not kept: every copy forward stays.");
}

/* The grid gate (from GRID_GATE_VERSION), last. */
static void grid_gate_section(struct buf *b, const struct run_facts *run)
{
	const struct grid_gate *g = &run->archive->dispatch.gate;
	if (!g->tried)
		return;
	int pooled = run->archive->probe_version >= POOLED_GATE_VERSION;
	int bands = run->archive->probe_version >= GATE_BANDS_VERSION;
	char holm[320];
	snprintf(holm, sizeof holm,
		 "a median over the noise timed twice more, at new places and the last in a process of its own, a "
		 "loss where every timing's median is over the noise and the sign test of all its rounds survives "
		 "Holm's procedure over every point judged, a family-wise error of %.0f%%",
		 GATE_FAMILY_ERROR * 100);
	buf_printf(b, "\nLast, the grid gate: the table kept, compiled, against every copy forward as it ships (%s), "
		      "timed in turns at each point of make bench's grid (%zu lengths, 8 B to 8 MiB, at %zu distances)%s, "
		      "each point the median of %d rounds' ratios, %s: worst %.3fx at %u bytes, d = %u. %s\n",
		   strcmp(run->archive->flavor, "user") == 0 ? "the C library's memmove" : "the entry's own rep movsb",
		   bands ? BENCH_GRID_LENGTHS : (size_t)BENCH_GRID_LENGTHS_BEFORE_BANDS, BENCH_GRID_DISTANCES,
		   bands ? " and at every band's first length, the one before it and its middle" : "",
		   GRID_GATE_ROUNDS,
		   bands ? holm
		   : pooled ? "a median over the noise timed twice more, a loss where the table was the slower in "
			      "enough of all its rounds (a sign test)"
			    : "a loss beyond the noise timed twice more",
		   g->worst, g->length, g->distance,
		   g->refused ? "**Refused**: every copy forward stays, since a table never loses to what the caller "
				"already has beyond the noise."
			      : "Passed.");
	if (run->archive->probe_version >= GATE_CPUS_VERSION)
		buf_printf(b, "\nEach point was timed on every CPU the probe could run on, at most %d, and judged by the CPU "
			      "where the table did worst.\n",
			   GRID_GATE_CPUS);
	char bound[256];
	snprintf(bound, sizeof bound, "%.0f ticks over every copy forward's time there, the most its tree can cost",
		 TREE_TICKS_MAX);
	if (run->archive->probe_version >= GATE_BRANCHES_VERSION)
		snprintf(bound, sizeof bound, "%.0f tick for each branch its tree runs there and one for the jump to the "
					      "copy, over every copy forward's time: each call of a point takes one path, "
					      "whose branches predict",
			 GATE_BRANCH_TICKS);
	if (run->archive->probe_version >= TREE_BOUND_VERSION)
		buf_printf(b, "\nA loss's two more timings were two later sweeps, each with the table compiled at a new "
			      "place and copying in a fresh arena. A point whose cell copies as every copy forward does "
			      "is judged at most 1 + %s (derive/repair.h)%s.\n",
			   bound,
			   strcmp(run->archive->flavor, "user") == 0
				   ? "; the table and the C library's memmove were each timed behind one jump through a "
				     "pointer, as the drop-in library's memmove reaches either"
				   : "");
	const struct dispatch_run *d = &run->archive->dispatch;
	if (!d->records_repairs) {
		if (g->refused)
			buf_printf(b, "\nThis probe refused rather than repaired, and the archive records only the worst "
				      "point: the refusal stands until the core is probed again (docs/derivation.md).\n");
		return;
	}
	if (!d->n_repairs) {
		buf_printf(b, "\nNo point lost: nothing was repaired.\n");
		return;
	}
	buf_printf(b, "\nWhere a point lost beyond the noise, the lengths of its cell between the grid's neighbouring "
		      "lengths took the next copy the measurements rank, and the table was timed again there "
		      "(derive/repair.h); the verdict above is the repaired table's:\n\n"
		      "| lost at | ratio | lengths | from | to |\n|---|---|---|---|---|\n");
	for (int i = 0; i < d->n_repairs; i++) {
		const struct grid_repair *p = &d->repairs[i];
		buf_printf(b, "| %u bytes, d = %u | %.3f | %u..%u | %s | %s |\n", p->length, p->distance, p->ratio, p->lo,
			   p->hi, strategy_name[p->from], strategy_name[p->to]);
	}
}

/* Where the run's timings of the dispatch are not the derivation's, says
 * what each split was charged instead; nonzero then. */
static int dispatch_unmeasured(struct buf *b, const struct run_facts *run)
{
	const struct dispatch_run *d = &run->dispatch;
	if (!d->measured && run->archive->dispatch.measured) {
		buf_printf(b, "This run's probe (version %d) timed the dispatch, but not as the derivation (version %d) "
			      "uses it: its tables alternated their copy, so the slope measured the strategy mix as well as "
			      "the branches (%.2f ticks a band here), and it timed its candidates through the table "
			      "interpreter, not as gen writes them (derive/dispatch.h). Each split was charged the default, "
			      "%.2f ticks a call (derive/derive.h).\n",
			   run->archive->probe_version, DERIVE_VERSION, dispatch_band_ticks(&run->archive->dispatch),
			   DERIVE_BAND_TICKS_DEFAULT);
		return 1;
	}
	if (!d->measured) {
		buf_printf(b, "This run's probe (version %d) did not measure what the dispatch costs: each split was "
			      "charged the default, %.2f ticks a call (derive/derive.h).\n",
			   run->archive->probe_version, DERIVE_BAND_TICKS_DEFAULT);
		return 1;
	}
	return 0;
}

/* The tables of 1, 2, 4 and 8 alternating bands, timed on both streams. */
static void band_cost_table(struct buf *b, const struct run_facts *run)
{
	const struct dispatch_run *d = &run->dispatch;
	buf_printf(b, "The random-size workload (glibc bench-memcpy-random's sizes, common/workload.c) and the same "
		      "calls sorted by size, %s, in ticks per call:\n\n| bands | random | sorted | random - sorted "
		      "|\n|---|---|---|---|\n",
		   run->archive->probe_version >= 4
			   ? "each through a table whose bands alternate their copy, compiled to its branch tree as gen "
			     "writes it, every copy jumping to one body"
			   : "through the table dispatch under tables whose bands alternate their copy");
	for (int i = 0; i < DISPATCH_TABLES; i++)
		buf_printf(b, "| %d | %.2f | %.2f | %.2f |\n", dispatch_bands[i], d->tables[i].random, d->tables[i].sorted,
			   d->tables[i].random - d->tables[i].sorted);
	if (run->archive->probe_version >= TABLES_APART_VERSION)
		buf_printf(b, "\nEvery table in this section, and every copy forward as it ships, was timed in turns with "
			      "rep movsb (the forward routine) alone, one after another, never two tables in turns with "
			      "each other, each table compiled at %d places, the median of them (probe/placed.h).\n",
			   PLACES_TIMED);
}

/* The final candidates and every copy forward, timed and modelled, and
 * which the probe keeps. */
static void candidates_table(struct buf *b, const struct run_facts *run)
{
	const struct dispatch_run *d = &run->dispatch;
	double band = dispatch_band_ticks(d);
	struct model_costs costs = model_costs_of(d);
	buf_printf(b, "\nEach band past the first costs %.2f ticks a call: the slope of the last column. Both orders "
		      "make the same copies; the random one defeats the branches on size.\n\n"
		      "The final candidates, derived from every pass with each split charged a multiple of that, "
		      "timed %s, beside the model's figure for random sizes (derive/model.h: each call of the stream "
		      "walked through the table's tree, its copy's measured time, %.2f ticks a compare and %.2f a "
		      "misprediction as this run's trees measured them):\n\n| table | bands | random | sorted | model "
		      "|\n|---|---|---|---|---|\n",
		   band,
		   run->archive->probe_version < 4 ? "the same way"
		   : run->archive->probe_version >= 5 && strcmp(run->archive->flavor, "user") == 0
			   ? "each compiled as gen writes it (every copy forward: the C library's memmove, which the "
			     "drop-in library runs there)"
			   : "each compiled as gen writes it (every copy forward: the entry's own rep movsb)",
		   costs.compare_ticks, costs.mispredict_ticks);
	for (int i = 0; i < DISPATCH_CANDIDATES; i++) {
		struct derive_cost cost = {.band_ticks = band, .multiple = candidate_multiples[i], .measured = 1};
		struct derived_rule r;
		struct model_figures m;
		char bands[16] = "?", model[16] = "?";
		if (derive_rule(run->table, &cost, &r) == 0)
			snprintf(bands, sizeof bands, "%d", r.n_bands);
		if (bands[0] != '?' && rule_model(run->table, &r, &costs, 0, &m) == 0)
			snprintf(model, sizeof model, "%.2f", m.total);
		buf_printf(b, "| %s%g times the band cost%s | %s | %.2f | %.2f | %s |\n",
			   d->chosen == candidate_multiples[i] ? "**" : "", candidate_multiples[i],
			   d->chosen == candidate_multiples[i] ? " (kept)**" : "", bands, d->candidates[i].random,
			   d->candidates[i].sorted, model);
	}
	/* Where the shaped trial kept its table, every copy forward is not the
	 * rule; where the grid gate refused the table kept, it is. */
	int forward = !dispatch_keeps_table(d) || run->archive->dispatch.gate.refused;
	/* In the user flavor every copy forward is the C library's memmove,
	 * which the model does not know. */
	struct derived_rule base;
	struct model_figures m;
	char model[16] = "-";
	derived_baseline(&base);
	if (strcmp(run->archive->flavor, "user") != 0 && rule_model(run->table, &base, &costs, 0, &m) == 0)
		snprintf(model, sizeof model, "%.2f", m.total);
	buf_printf(b, "| %severy copy forward%s | 1 | %.2f | %.2f | %s |\n", forward ? "**" : "",
		   forward ? " (kept)**" : "", d->baseline.random, d->baseline.sorted, model);
	buf_printf(b, "\nThe probe keeps, of the candidates %s, the one charged the measured cost, unless another "
		      "beats it on random sizes beyond the noise; every copy forward where none is left.\n",
		   run->archive->probe_version >= BAND_TRIALS_VERSION
			   ? "faster than every copy forward beyond the noise on random sizes and no slower beyond it on "
			     "the sorted control (a tie goes to every copy forward)"
			   : "no slower than every copy forward beyond the noise on either stream");
}

/* The band trials on the kept (or, where every candidate lost, the
 * fastest) table. */
static void band_trials_table(struct buf *b, const struct run_facts *run, int shaping)
{
	const struct dispatch_run *d = &run->dispatch;
	if (shaping)
		buf_printf(b, "\nEvery candidate lost, so the trials ran on the one fastest on random sizes, at %g times the "
			      "band cost, to see whether a table shaped from it beats every copy forward (the shaped trial, "
			      "probe version 9).\n",
			   d->shaped.from);
	buf_printf(b, "\nThen each split of the %s table that the workload's calls reach (up to %u bytes), tried "
		      "away: the table derived again with no band edge inside a range, against the table with the "
		      "split, both compiled and timed in turns, the median of %d rounds in ticks per call. A range "
		      "stays whole where the split was not faster beyond the noise %s.\n\n",
		   shaping ? "fastest" : "kept", workload_longest(), DISPATCH_PAIRED_ROUNDS,
		   run->archive->probe_version >= WORKLOAD_SPLITS_VERSION
			   ? "on random sizes (probe version 19: the sorted control keeps no split)"
			   : "on either stream");
	if (!d->n_trials)
		buf_printf(b, "The %s table has no split the workload reaches.\n", shaping ? "fastest" : "kept");
	else
		buf_printf(b, "| range tried whole | with the split: random | sorted | without it: random | sorted | verdict "
			      "|\n|---|---|---|---|---|---|\n");
	for (int i = 0; i < d->n_trials; i++) {
		const struct band_trial *t = &d->trials[i];
		buf_printf(b, "| %u..%u | %.2f | %.2f | %.2f | %.2f | %s |\n", t->range.lo, t->range.hi, t->with.random,
			   t->with.sorted, t->without.random, t->without.sorted,
			   t->merged ? "**kept whole**" : "split kept");
	}
}

void summary_dispatch(struct buf *b, const struct run_facts *run)
{
	const struct dispatch_run *d = &run->dispatch;
	buf_printf(b, "\n## Dispatch\n\n");
	if (dispatch_unmeasured(b, run))
		return;
	band_cost_table(b, run);
	if (d->searched) {
		summary_search(b, run);
		grid_gate_section(b, run);
		return;
	}
	candidates_table(b, run);
	if (run->archive->probe_version < BAND_TRIALS_VERSION || dispatch_start(d) == CHOSE_BASELINE)
		return;
	int shaping = d->chosen == CHOSE_BASELINE;
	band_trials_table(b, run, shaping);
	if (run->archive->probe_version >= SMALL_TRIAL_VERSION)
		small_trial_section(b, run);
	if (shaping)
		shaped_trial_section(b, &d->shaped);
	if (shaping && !d->shaped.kept && run->archive->probe_version >= CLASSES_TRIAL_VERSION &&
	    strcmp(run->archive->flavor, "user") != 0)
		classes_trial_section(b, &d->classes, run->archive->probe_version);
	if (run->archive->probe_version >= GRID_GATE_VERSION)
		grid_gate_section(b, run);
}
