/* choice.csv and plot.gp: the table's choice at every measured point,
 * and the drawing of it beside the summary. */
#include "evidence_choice.h"

#include "../../common/plot.h"
#include "../../common/util.h"

#include <stdio.h>

double evidence_ticks_at(const struct timings *t, int s, unsigned int n, unsigned int d)
{
	const struct row *r = timings_find(t, s, n, d, ANY_MISALIGN);
	return r ? r->ticks : -1;
}

/* choice.csv: every measured point (length, distance), the strategy the
 * table chose there, and its regret. */
int evidence_write_choices(const char *path, const struct run_facts *run)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "length,distance,strategy,code,regret\n");
	for (size_t i = 0; i < run->table->n; i++) {
		const struct row *r = &run->table->rows[i];
		if (r->strategy != BASELINE_STRATEGY)
			continue;
		int s = rule_choice(run->rule, r->length, r->distance);
		double best = 1e300, chosen = evidence_ticks_at(run->table, s, r->length, r->distance);
		for (int k = 0; k < N_COPY_STRATEGIES; k++) {
			double t = evidence_ticks_at(run->table, k, r->length, r->distance);
			if (t > 0 && t < best)
				best = t;
		}
		fprintf(f, "%u,%u,%s,%d,%.4f\n", r->length, r->distance, strategy_name[s], s,
			chosen > 0 && best < 1e300 ? chosen / best : 0);
	}
	return fclose(f);
}

/* Text in a single-quoted gnuplot string: gnuplot runs a `command` inside
 * double quotes (its "substitution"), not inside single ones, where a quote
 * is written twice. The brand string is the CPU's, or a hypervisor's. */
static void gp_single_quoted(char *out, size_t size, const char *s)
{
	size_t o = 0;
	for (; *s && o + 3 < size; s++) {
		if (*s == '\'')
			out[o++] = '\'';
		out[o++] = *s;
	}
	out[o] = '\0';
}

/* used[s]: 1 where the table chose strategy s at a measured point, the
 * strategies choice.csv holds. The legend names those alone, so that a
 * strategy added to the catalogue later leaves an earlier run's drawing as
 * it was. */
static void strategies_chosen(const struct run_facts *run, int used[N_COPY_STRATEGIES])
{
	for (int s = 0; s < N_COPY_STRATEGIES; s++)
		used[s] = 0;
	for (size_t i = 0; i < run->table->n; i++) {
		const struct row *r = &run->table->rows[i];
		if (r->strategy == BASELINE_STRATEGY)
			used[rule_choice(run->rule, r->length, r->distance)] = 1;
	}
	/* A run with no point still draws: forward's key, over nothing. */
	int any = 0;
	for (int s = 0; s < N_COPY_STRATEGIES; s++)
		any |= used[s];
	used[BASELINE_STRATEGY] |= !any;
}

char *evidence_plot_body(const struct entry_choice *entry, const struct run_facts *run)
{
	struct buf b = {0};
	char raw[256], title[512];
	snprintf(raw, sizeof raw, "%s (%s)%s", entry->name, run->cpu->brand, run->cpu->guest ? ", guest" : "");
	gp_single_quoted(title, sizeof title, raw);
	buf_printf(&b,
		   "set datafile separator ','\n"
		   "set logscale x 2\n"
		   "%s"
		   "set xrange [0.8:1.3e6]\n"
		   "set yrange [-50:4146]\n"
		   "set ytics 512\n"
		   "set grid\n"
		   "set xlabel 'length (bytes)'\n"
		   "set ylabel '(dst - src) mod 4096'\n"
		   "set multiplot layout 1,2 title '%s: the derived table at every measured point'\n"
		   "set title 'strategy chosen'\n"
		   "set key outside bottom center horizontal\n",
		   plot_length_xtics, title);
	int used[N_COPY_STRATEGIES], plotted = 0;
	strategies_chosen(run, used);
	buf_printf(&b, "plot ");
	/* Each strategy keeps its colour, its code's, in every run's drawing. */
	for (int s = 0; s < N_COPY_STRATEGIES; s++)
		if (used[s])
			buf_printf(&b,
				   "%s'choice.csv' every ::1 using 1:($4 == %d ? $2 : 1/0) with points pt 5 ps 0.4 lc %d "
				   "title '%s'",
				   plotted++ ? ", " : "", s, s + 1, strategy_name[s]);
	buf_printf(&b,
		   "\nset title 'regret: chosen / best measured'\n"
		   "set cbrange [1:%.3f]\n"
		   "set palette defined (0 'white', 1 'orange', 2 'red')\n"
		   "unset key\n"
		   "plot 'choice.csv' every ::1 using 1:2:5 with points pt 5 ps 0.4 palette\n"
		   "unset multiplot\n",
		   run->rule->worst_regret > 1.01 ? run->rule->worst_regret : 1.01);
	return b.data;
}
