/* probe: measures the core it runs on and records its copy rule in uarch.db. */
#include "../gen/text.h"
#include "copy_rule.h"
#include "cpu.h"
#include "derive.h"
#include "evidence.h"
#include "measure.h"
#include "plot.h"
#include "record.h"

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
	"usage: probe [--name NAME] [--db PATH] [--dry-run] [--quick]\n"
	"       probe --derive FILE.csv\n"
	"\n"
	"Measures this CPU: times every copy strategy of the flavor (forward rep movsb,\n"
	"forward with an aligned head, the descending copy, the small-copy path) at every\n"
	"length and distance of the plan, derives the decision table (length bands x\n"
	"distance classes) with the least regret, ties going to the baseline, and records\n"
	"it, the raw timings and an evidence folder (CSV, summary, plot) in one step.\n"
	"Run make afterwards to regenerate out/.\n"
	"\n"
	"  --name NAME      the entry to record into; needed when no CPUID range of the\n"
	"                   database holds this CPU (a new entry is created)\n"
	"  --db PATH        the database (default uarch.db); evidence goes next to it\n"
	"  --dry-run        measure and print, write nothing\n"
	"  --quick          a small plan that runs in seconds (for tests; not a measurement)\n"
	"  --derive FILE    derive the table from a recorded measurements.csv, time nothing\n"
	"\n"
	"exit status: 0 recorded (or printed), 1 failed or interrupted (nothing written),\n"
	"2 usage error or a CPU the database cannot place\n";

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int show_progress;

static void progress(int pass, size_t done, size_t total, const struct point *now)
{
	if (!show_progress)
		return;
	int width = 30, filled = (int)(width * done / total);
	fprintf(stderr, "\r  pass %d [%.*s%*s] %3zu%%  %-18s %6u B  d=%-4u", pass + 1, filled,
		"##############################", width - filled, "", 100 * done / total, strategy_name[now->strategy],
		now->length, now->distance);
	if (done == total)
		fputc('\n', stderr);
	fflush(stderr);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void print_rule(const char *what, const struct derived_rule *r)
{
	char text[512];
	rule_text(r, text, sizeof text);
	printf("%s: above_max %u, below_max %u, zero_mod %d, align_dst %d: %s\n", what, r->above_max, r->below_max,
	       r->zero_mod, r->align_dst, text);
	printf("      regret: worst %.3f (%u bytes, d = %u), median %.3f, mean %.4f; worst against the baseline %.3f\n",
	       r->worst_regret, r->worst_length, r->worst_distance, r->median_regret, r->mean_regret,
	       r->worst_vs_baseline);
}

static int derive_only(const char *csv)
{
	struct table t = {0};
	struct derived_rule r;
	if (table_read_csv(&t, csv))
		return 1;
	if (derive_rule(&t, &r)) {
		fprintf(stderr, "probe: %s: %s\n", csv, r.note);
		table_free(&t);
		return 1;
	}
	print_rule("table", &r);
	printf("%s\n", r.note);
	table_free(&t);
	return 0;
}

int main(int argc, char **argv)
{
	const char *name = NULL, *db = "uarch.db", *derive = NULL;
	int dry_run = 0, quick = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		} else if (strcmp(a, "--dry-run") == 0) {
			dry_run = 1;
		} else if (strcmp(a, "--quick") == 0) {
			quick = 1;
		} else if ((strcmp(a, "--name") == 0 || strcmp(a, "--db") == 0 || strcmp(a, "--derive") == 0) &&
			   i + 1 < argc) {
			const char *v = argv[++i];
			if (a[2] == 'n')
				name = v;
			else if (a[3] == 'b')
				db = v;
			else
				derive = v;
		} else {
			fprintf(stderr, "probe: unknown or incomplete option '%s' (try --help)\n", a);
			return 2;
		}
	}
	if (derive)
		return derive_only(derive);

	struct cpu_info cpu;
	char sig[96];
	cpu_identify(&cpu);
	cpu_signature_text(&cpu, sig, sizeof sig);
	printf("cpu: %s\n     %s\n     ERMS %s, FSRM %s, AVX2 %s, AVX-512F %s%s%s\n", cpu.brand, sig,
	       cpu.erms ? "yes" : "no", cpu.fsrm ? "yes" : "no", cpu.avx2 ? "yes" : "no", cpu.avx512f ? "yes" : "no",
	       cpu.guest ? "; hypervisor guest: " : "; bare metal", cpu.guest ? cpu.hypervisor : "");

	if (!vendor_known(cpu.vendor)) {
		char shown[13];
		memcpy(shown, cpu.vendor, sizeof shown);
		text_sanitize(shown);
		fprintf(stderr, "probe: this CPU reports vendor '%s', which no CPU the database can hold reports (%s)\n",
			shown, vendor_list);
		return 2;
	}
	struct entry_choice entry;
	int rc = record_choose_entry(db, &cpu, name, &entry);
	if (rc)
		return rc;
	printf("entry: %s%s\n", entry.name, entry.is_new ? " (new)" : "");
	fflush(stdout);
	if (!dry_run && !plot_available()) {
		fprintf(stderr, "probe: gnuplot is missing, and the evidence needs its plot (make deps)\n");
		return 1;
	}

	/* Stay on one CPU: a migration mid-sample would time two cores. */
	cpu_set_t one;
	CPU_ZERO(&one);
	int here = sched_getcpu();
	CPU_SET(here >= 0 ? here : 0, &one);
	sched_setaffinity(0, sizeof one, &one);

	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	show_progress = isatty(2);

	struct plan plan;
	if (quick)
		plan_quick(&plan);
	else
		plan_full(&plan);
	struct measurement m;
	measurement_init(&m, &plan);
	struct run_facts run = {0};
	run.cpu = &cpu;
	run.flavor = UC_FLAVOR; /* the flavor of the out/ files this probe is built against */
	run.samples = plan.samples;
	/* Each pass lowers some minima; the table is derived again from the
	 * minima so far. Noise moves a band edge or a class bound by a step
	 * that buys nothing, so the derivation is stable, from the third pass,
	 * once the previous pass's table judged on the new minima is as good as
	 * the new table: its worst regret within the noise and its mean within
	 * half a percent. */
	int stable = 0;
	while (m.passes < plan.max_passes && m.passes < MAX_RUN_PASSES && !stable) {
		if (!show_progress)
			fprintf(stderr, "  pass %d: %zu points\n", m.passes + 1, m.n);
		if (measure_pass(&m, &plan, &stop, progress)) {
			if (show_progress)
				fputc('\n', stderr);
			fprintf(stderr, "probe: interrupted; nothing was written\n");
			measurement_free(&m);
			return 1;
		}
		struct table t;
		struct derived_rule *r = &run.pass_rule[m.passes - 1];
		measurement_table(&m, m.passes, &t);
		if (derive_rule(&t, r)) {
			fprintf(stderr, "probe: %s\n", r->note);
			return 1;
		}
		char what[32];
		snprintf(what, sizeof what, "pass %d", m.passes);
		print_rule(what, r);
		if (m.passes >= 3) {
			struct derived_rule before = run.pass_rule[m.passes - 2];
			stable = rule_regret(&t, &before) == 0 &&
				 before.worst_regret <= r->worst_regret * (1 + r->noise) &&
				 before.mean_regret <= r->mean_regret + 0.005;
		}
		if (plan.max_passes < 3)
			stable = m.passes == plan.max_passes; /* --quick: not a measurement */
		table_free(&t);
	}
	run.passes = m.passes;
	run.overhead = m.overhead;

	struct table final;
	struct derived_rule rule;
	measurement_table(&m, m.passes, &final);
	if (derive_rule(&final, &rule)) {
		fprintf(stderr, "probe: %s\n", rule.note);
		return 1;
	}
	double *spreads = malloc(final.n * sizeof *spreads);
	for (size_t i = 0; i < final.n; i++)
		spreads[i] = final.rows[i].spread;
	qsort(spreads, final.n, sizeof *spreads, cmp_double);
	run.median_spread = spreads[final.n / 2];
	run.worst_spread = spreads[final.n - 1];
	free(spreads);
	run.table = &final;
	run.rule = &rule;
	time_t now = time(NULL);
	strftime(run.date, sizeof run.date, "%Y-%m-%d", gmtime(&now));

	print_rule("table", &rule);
	printf("      %s\n", rule.note);
	printf("spread across %d passes: median %.1f%%, worst %.1f%%\n", run.passes, run.median_spread * 100,
	       run.worst_spread * 100);
	if (!stable) {
		fprintf(stderr,
			"probe: the table still changed after %d passes; nothing was recorded (a quieter "
			"machine, or fewer other loads, may settle it)\n",
			plan.max_passes);
		return 1;
	}
	if (dry_run) {
		char *summary = evidence_summary(&entry, &run, NULL);
		printf("\n%s", summary);
		free(summary);
		printf("\n--dry-run: nothing was written\n");
		return 0;
	}
	if (stop) {
		fprintf(stderr, "probe: interrupted; nothing was written\n");
		return 1;
	}
	rc = record_run(db, &entry, &run);
	table_free(&final);
	measurement_free(&m);
	if (rc)
		return 1;
	printf("next: make    (regenerates out/ from the new rule), then make check\n");
	return 0;
}
