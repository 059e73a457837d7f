/* probe: measures the core it runs on and writes a run archive, which
 * `uarchgen import` turns into the core's rule and evidence. It needs
 * nothing at run time but the kernel: it is linked statically and reads no
 * database, so it runs on machines that lack the toolchain. */
#include "../common/text.h"
#include "../common/util.h"
#include "../derive/archive.h"
#include "../derive/regime.h"
#include "../derive/chosen.h"
#include "../derive/derive.h"
#include "../derive/gate_effect.h"
#include "checks.h"
#include "cpus.h"
#include "dispatch_cost.h"
#include "flavor.h"
#include "machine.h"
#include "measure.h"
#include "overlaps.h"
#include "prediction.h"
#include "run_report.h"
#include "streams.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
	"usage: probe [--out DIR] [--flavor NAME] [--quick]\n"
	"\n"
	"Measures this CPU: for each flavor it carries, times every copy strategy the\n"
	"flavor has and this CPU can run (rep movsb forward, with an aligned head, the\n"
	"descending copy, the small-copy path; AVX2 and AVX-512 loops, streaming\n"
	"stores), each through its own entry as gen compiles a table that gives it\n"
	"every copy, at every length and distance of the plan, pass after\n"
	"pass until the decision table derived from them stops changing. First it\n"
	"times what a band of the table costs a call on a random-size workload, and\n"
	"each pass charges every split that; then, in a flavor with a memmove, it times\n"
	"each copy that may serve memmove where the ranges overlap; last it times the\n"
	"final candidate tables on that workload and keeps one. Then writes one run\n"
	"archive per flavor: the raw timings, the workload's, the CPUID leaves, the\n"
	"hypervisor, microcode and kernel, and a checksum. Bring the archives to a\n"
	"checkout of uarchcopy and run:\n"
	"gen/uarchgen import FILE...\n"
	"\n"
	"  --out DIR      where the archives go (default: this directory), each named\n"
	"                 probe-FFh-MMh-DATE-FLAVOR-SUM.run from CPUID's family and\n"
	"                 model, the date, the flavor and the checksum\n"
	"  --flavor NAME  measure this flavor only\n"
	"  --quick        a small plan that runs in seconds (for tests; not a measurement)\n"
	"\n"
	"exit status: 0 written, 1 failed, unstable or interrupted (nothing written),\n"
	"2 usage error or a CPU no vendor of the database reports\n";

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

/* Times pass after pass. Each pass lowers some minima; the table is derived
 * again from the minima so far. Noise moves a band edge or a class bound by
 * a step that buys nothing, so the run is stable, from the third pass, once
 * the previous pass's table judged on the new minima is as good as the new
 * table: its worst regret within the noise and its mean within half a
 * percent. Returns 0 stable, 1 unstable, -1 interrupted or failed. */
static int measure_until_stable(struct measurement *m, const struct timing_plan *plan, const struct probe_flavor *f,
				const struct derive_cost *cost)
{
	struct derived_rule previous = {0};
	while (m->passes < plan->max_passes) {
		if (!show_progress)
			fprintf(stderr, "  pass %d: %zu points\n", m->passes + 1, m->n);
		if (measure_pass(m, plan, f, &stop, progress))
			return -1;
		struct timings t;
		struct derived_rule r;
		measurement_table(m, m->passes, &t);
		if (derive_rule(&t, cost, &r)) {
			fprintf(stderr, "probe: %s\n", r.note);
			timings_free(&t);
			return -1;
		}
		char what[64];
		snprintf(what, sizeof what, "%s, pass %d", f->name, m->passes);
		print_rule(what, &r);
		int stable = m->passes >= 3 && rule_regret(&t, &previous) == 0 &&
			     previous.worst_regret <= r.worst_regret * (1 + r.noise) &&
			     previous.mean_regret <= r.mean_regret + 0.005;
		if (plan->max_passes < 3)
			stable = m->passes == plan->max_passes; /* --quick: not a measurement */
		timings_free(&t);
		previous = r;
		if (stable)
			return 0;
	}
	return 1;
}

/* Writes text to path whole or not at all: a hidden temporary file beside
 * it, synced, then renamed; signals wait until it is done or undone. */
static int write_whole(const char *path, const char *text)
{
	char tmp[4200];
	const char *slash = strrchr(path, '/');
	int dir_len = slash ? (int)(slash - path + 1) : 0;
	snprintf(tmp, sizeof tmp, "%.*s.%s.tmp-%ld", dir_len, path, path + dir_len, (long)getpid());
	sigset_t old;
	signals_hold(&old);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
	size_t len = strlen(text), done = 0;
	while (fd >= 0 && done < len) {
		ssize_t n = write(fd, text + done, len - done);
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	int rc = fd < 0 || done != len || fsync(fd) != 0;
	int saved = errno;
	if (fd >= 0 && close(fd) != 0)
		rc = 1;
	if (!rc && link(tmp, path) != 0) /* link: an archive already there is never replaced */
		rc = 1, saved = errno;
	if (fd >= 0)
		unlink(tmp);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc)
		fprintf(stderr, "probe: %s: %s; nothing was written\n", path, strerror(saved));
	return rc;
}

/* The machine's description, printed; 2 where no CPU the database can hold
 * reports this vendor. */
static int describe_machine(struct run_archive *machine, struct cpu_info *cpu)
{
	char sig[96];
	machine_read(machine);
	cpu_decode(&machine->cpuid, cpu);
	cpu_signature_text(cpu, sig, sizeof sig);
	printf("cpu: %s\n     %s\n     ERMS %s, FSRM %s, AVX2 %s, AVX-512F %s; %s%s\n", cpu->brand, sig,
	       cpu->erms ? "yes" : "no", cpu->fsrm ? "yes" : "no", cpu->avx2 ? "yes" : "no",
	       cpu->avx512f ? "yes" : "no", cpu->guest ? "hypervisor guest: " : "bare metal",
	       cpu->guest ? cpu->hypervisor : "");
	printf("     kernel %s; microcode %s; platform %s\n", machine->kernel, machine->microcode, machine->platform);
	if (!vendor_known(cpu->vendor)) {
		fprintf(stderr, "probe: this CPU reports vendor '%s', which no CPU the database can hold reports (%s)\n",
			cpu->vendor, vendor_list);
		return 2;
	}
	fflush(stdout);
	return 0;
}

/* Stays on one CPU (cpus.h), and turns the signals that end a run into
 * the stop flag, so that an interrupted run writes nothing. */
static void settle(void)
{
	cpus_settle();

	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	show_progress = isatty(2);
}

/* Measures flavor f into a (the machine already filled in): what a band
 * costs, the passes until the table settles, and the final candidates.
 * 0, 1 (never settled) or -1. */
static int measure_flavor(const struct probe_flavor *f, const struct timing_plan *plan, struct run_archive *a)
{
	snprintf(a->flavor, sizeof a->flavor, "%s", f->name);
	a->samples = plan->samples;
	measurement_init(&a->m, plan, f);
	/* What a band costs first, so that every pass derives as the import
	 * will. */
	measure_dispatch(f, &a->dispatch);
	struct derive_cost cost = {
		.band_ticks = dispatch_band_ticks(&a->dispatch), .multiple = 1, .measured = 1, .against_reference = 1};
	printf("%s: each band past the first costs %.2f ticks a call on random sizes (tables of 1, 2, 4, 8 "
	       "bands: %.2f %.2f %.2f %.2f, sorted %.2f %.2f %.2f %.2f)\n",
	       f->name, cost.band_ticks, a->dispatch.tables[0].random, a->dispatch.tables[1].random,
	       a->dispatch.tables[2].random, a->dispatch.tables[3].random, a->dispatch.tables[0].sorted,
	       a->dispatch.tables[1].sorted, a->dispatch.tables[2].sorted, a->dispatch.tables[3].sorted);
	int rc = measure_until_stable(&a->m, plan, f, &cost);
	if (rc > 0)
		fprintf(stderr,
			"probe: flavor %s: the table still changed after %d passes; nothing was written (a quieter "
			"machine, or fewer other loads, may settle it)\n",
			f->name, plan->max_passes);
	if (rc || stop)
		return rc;
	struct timings t, deciding;
	measurement_table(&a->m, a->m.passes, &t);
	print_regime(&t);
	size_t left_out = regime_deciding(&t, 1, &deciding);
	if (left_out)
		printf("  regime: no cell is decided at those %zu points (lengths and distances)\n", left_out);
	if (f->moves)
		fprintf(stderr, "  memmove where the ranges overlap\n");
	measure_overlaps(f, plan, plan->max_passes < 3 ? 1 : OVERLAP_PASSES, &a->overlap);
	/* The search, its tables checked as callers run them. */
	struct derived_rule r;
	rc = derive_rule(&deciding, &cost, &r) ? -1
					       : search_and_check(f, &deciding, &a->dispatch, r.noise,
								  ratio_placement_sd(&a->m), plan->lengths[plan->n_lengths - 1]);
	if (rc == 0)
		rc = print_stand_ins(f, &deciding, &t, a);
	timings_free(&deciding);
	timings_free(&t);
	if (rc == 0)
		check_prediction(f);
	return rc;
}

/* Writes each measured flavor's archive into out, all or none: an archive
 * written before a later one failed is removed. 0 or -1. */
static int write_archives(struct run_archive *runs, size_t n_flavors, const char *out, const struct cpu_info *cpu)
{
	time_t now = time(NULL);
	char date[11];
	strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
	size_t name_len = strlen(out) + 128;
	char *names = calloc(n_flavors, name_len);
	if (!names) {
		fprintf(stderr, "probe: out of memory\n");
		return -1;
	}
	int rc = 0;
	size_t written = 0;
	for (; rc == 0 && written < n_flavors; written++) {
		struct run_archive *a = &runs[written];
		if (!a->m.n)
			continue;
		memcpy(a->date, date, sizeof date);
		char *text = archive_text(a), *name = names + written * name_len;
		snprintf(name, name_len, "%s/probe-%02xh-%02xh-%s-%s-%.6s.run", out, cpu->family, cpu->model, a->date,
			 a->flavor, a->sha256);
		rc = write_whole(name, text);
		free(text);
		if (rc == 0)
			printf("wrote %s (%zu points, %d passes, sha256 %.12s...)\n", name, a->m.n, a->m.passes,
			       a->sha256);
		else
			name[0] = 0;
	}
	if (rc) {
		for (size_t i = 0; i < written; i++)
			if (names[i * name_len])
				unlink(names + i * name_len);
	} else {
		printf("next, in a checkout of uarchcopy: gen/uarchgen import");
		for (size_t i = 0; i < n_flavors; i++)
			if (names[i * name_len])
				printf(" %s", names + i * name_len);
		printf("\n");
	}
	free(names);
	return rc ? -1 : 0;
}

/* Why the archives cannot be written into out, or NULL where they can. */
static const char *out_problem(const char *out)
{
	struct stat st;
	if (stat(out, &st) != 0)
		return strerror(errno);
	if (!S_ISDIR(st.st_mode))
		return strerror(ENOTDIR);
	return access(out, W_OK) == 0 ? NULL : strerror(errno);
}

int main(int argc, char **argv)
{
	const char *out = ".", *only = NULL;
	int quick = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		} else if (strcmp(a, "--quick") == 0) {
			quick = 1;
		} else if ((strcmp(a, "--out") == 0 || strcmp(a, "--flavor") == 0) && i + 1 < argc && argv[i + 1][0]) {
			*(a[2] == 'o' ? &out : &only) = argv[++i];
		} else {
			fprintf(stderr, "probe: unknown or incomplete option '%s' (try --help)\n", a);
			return 2;
		}
	}
	size_t n_flavors = 0, chosen = 0;
	for (; probe_flavors[n_flavors]; n_flavors++)
		chosen += !only || strcmp(probe_flavors[n_flavors]->name, only) == 0;
	if (!chosen) {
		fprintf(stderr, "probe: --flavor %s: this probe carries no such flavor (", only);
		for (size_t i = 0; i < n_flavors; i++)
			fprintf(stderr, "%s%s", i ? ", " : "", probe_flavors[i]->name);
		fprintf(stderr, ")\n");
		return 2;
	}

	/* Where the archives go is checked before a minute of measuring, and
	 * again as they are written (write_archives). */
	const char *problem = out_problem(out);
	if (problem) {
		fprintf(stderr, "probe: --out %s: %s; nothing was written\n", out, problem);
		return 2;
	}
	struct run_archive machine = {.probe_version = PROBE_VERSION};
	struct cpu_info cpu;
	if (describe_machine(&machine, &cpu))
		return 2;
	settle();
	struct timing_plan plan;
	if (quick) {
		timing_plan_quick(&plan);
		streams_quick();
	} else
		timing_plan_full(&plan);
	/* Every flavor is measured before any archive is written: an
	 * interruption or an unstable flavor writes none. Allocated before any
	 * measurement, so that running out of memory wastes none. */
	struct run_archive *runs = calloc(n_flavors, sizeof *runs);
	if (!runs) {
		fprintf(stderr, "probe: out of memory\n");
		return 1;
	}
	int rc = 0;
	for (size_t i = 0; i < n_flavors && rc == 0 && !stop; i++) {
		runs[i] = machine;
		if (!only || strcmp(probe_flavors[i]->name, only) == 0)
			rc = measure_flavor(probe_flavors[i], &plan, &runs[i]);
	}
	if (rc < 0 || stop)
		fprintf(stderr, "%sprobe: %s; nothing was written\n", show_progress ? "\n" : "",
			stop ? "interrupted" : "failed");
	else if (rc == 0)
		rc = write_archives(runs, n_flavors, out, &cpu);
	for (size_t i = 0; i < n_flavors; i++)
		measurement_free(&runs[i].m);
	free(runs);
	return rc || stop ? 1 : 0;
}
