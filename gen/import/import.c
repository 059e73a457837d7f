#include "import.h"

#include "../../common/plot.h"
#include "../../common/text.h"
#include "../../common/util.h"
#include "../../derive/chosen.h"
#include "../../derive/overlap.h"
#include "../../derive/regime.h"
#include "../model/model.h"
#include "evidence.h"
#include "interrupt.h"
#include "record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DMI vendors and products of virtual platforms (what systemd-detect-virt
 * also reads): a run on one of these is a guest's, whatever the archive's
 * hypervisor line says. */
static const char *const virtual_platforms[] = {"QEMU",       "KVM",    "VMware",       "VirtualBox",   "innotek",
						"Xen",        "Bochs",  "Parallels",    "BHYVE",        "Amazon EC2",
						"Google Compute Engine", "Virtual Machine", "OpenStack", "Cloud Hypervisor"};

static const char *virtual_platform(const char *platform)
{
	for (size_t i = 0; i < sizeof virtual_platforms / sizeof *virtual_platforms; i++)
		if (strstr(platform, virtual_platforms[i]))
			return virtual_platforms[i];
	return NULL;
}

/* What makes the archive's machine facts inconsistent, or NULL. A guest's
 * timings include the hypervisor's; a rule must say so, so a guest run
 * that claims bare metal is refused rather than believed. */
static const char *machine_problem(const struct run_archive *a, const struct cpu_info *c, char *why, size_t size)
{
	int says_bare = strcmp(a->hypervisor, "none") == 0;
	const char *platform = virtual_platform(a->platform);
	if (says_bare && c->guest)
		snprintf(why, size, "a guest measurement claims bare metal: CPUID leaf 1 reports a hypervisor (%s)",
			 c->hypervisor);
	else if (says_bare && platform)
		snprintf(why, size, "a guest measurement claims bare metal: its platform, '%s', is %s's virtual machine",
			 a->platform, platform);
	else if (!says_bare && !c->guest)
		snprintf(why, size, "the hypervisor line names '%s', but CPUID leaf 1 reports none", a->hypervisor);
	else if (!says_bare && strcmp(a->hypervisor, c->hypervisor) != 0)
		snprintf(why, size, "the hypervisor line names '%s', but CPUID leaf 0x40000000 names '%s'", a->hypervisor,
			 c->hypervisor);
	else
		return NULL;
	return why;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* run->flat_pairs: the branch-light copies of the run's flat check, from
 * the points that decide a cell, as its rule was derived. */
static void flat_pairs_of(const struct timings *deciding, struct run_facts *run)
{
	const struct dispatch_run *d = &run->dispatch;
	struct derived_rule *flat = malloc(sizeof *flat);
	run->flat_pairs = 0;
	for (int i = 0; flat && i < d->n_checks; i++)
		if (d->checks[i].flat && d->checks[i].rank < run->n_ranked)
			run->flat_pairs = search_flat(deciding, &run->ranked[d->checks[i].rank], flat);
	free(flat);
}

static void print_rule(const char *what, const struct derived_rule *r)
{
	char text[RULE_TEXT_MAX];
	rule_text(r, text, sizeof text);
	printf("%s: above_max %u, near_max %u, below_max %u, zero_mod %d, align_dst %d: %s\n", what, r->above_max,
	       r->near_max, r->below_max, r->zero_mod, r->align_dst, text);
	printf("      regret: worst %.3f (%u bytes, d = %u), 99th percentile %.3f, median %.3f, mean %.4f, above 1.05 "
	       "at %zu of %zu points; worst against the baseline %.3f\n",
	       r->worst_regret, r->worst_length, r->worst_distance, r->p99_regret, r->median_regret, r->mean_regret,
	       r->over_5pct, r->points, r->worst_vs_baseline);
}

/* The same derivation the probe ran to decide it was done: the table after
 * each pass for the evidence, each split charged the measured cost (the
 * default for a probe older than DISPATCH_TRUSTED_VERSION,
 * derive/dispatch.h); then the rule it kept, at the multiple of that cost
 * its workload chose, with the ranges its band trials kept whole. */
int import_derive(const struct run_archive *a, struct timings *t, struct derived_rule *rule, struct run_facts *run)
{
	run->dispatch = a->dispatch;
	if (a->probe_version < DISPATCH_TRUSTED_VERSION)
		run->dispatch.measured = 0;
	struct derive_cost per_pass = dispatch_cost(&run->dispatch);
	/* As the probe derived them between passes: before its candidates
	 * and its band trials. */
	per_pass.multiple = 1;
	per_pass.n_unsplit = 0;
	for (int k = 1; k <= a->m.passes; k++) {
		struct timings so_far;
		measurement_table(&a->m, k, &so_far);
		int rc = derive_rule(&so_far, &per_pass, &run->pass_rule[k - 1]);
		timings_free(&so_far);
		if (rc) {
			err("%s", run->pass_rule[k - 1].note);
			return -1;
		}
	}
	measurement_table(&a->m, a->m.passes, t);
	struct timings deciding;
	size_t left_out = regime_deciding(t, a->probe_version >= ARTIFACTS_EXCLUDED_VERSION, &deciding);
	run->n_ranked = 0;
	int ranked = run->dispatch.searched && search_rank(&deciding, &run->dispatch, run->ranked, &run->n_ranked) == 0;
	if (!ranked)
		run->n_ranked = 0;
	int failed = derive_chosen_ranked(&deciding, &run->dispatch, ranked ? run->ranked : NULL, run->n_ranked, rule);
	flat_pairs_of(&deciding, run);
	timings_free(&deciding);
	if (failed) {
		err("%s", rule->note);
		return -1;
	}
	regime_say_excluded(rule, left_out);
	overlap_stand_ins(&a->overlap, t, run->moves, rule);
	double *spreads = malloc(t->n * sizeof *spreads);
	if (!spreads)
		return -1;
	for (size_t i = 0; i < t->n; i++)
		spreads[i] = t->rows[i].spread;
	qsort(spreads, t->n, sizeof *spreads, cmp_double);
	run->median_spread = spreads[t->n / 2];
	run->worst_spread = spreads[t->n - 1];
	free(spreads);
	run->table = t;
	run->rule = rule;
	return 0;
}

/* The database's flavor of that name, or NULL. */
static const struct flavor *flavor_named(const struct model *m, const char *flavor)
{
	for (size_t i = 0; i < m->n_flavors; i++)
		if (m->flavors[i].name && strcmp(m->flavors[i].name, flavor) == 0)
			return &m->flavors[i];
	return NULL;
}

/* Returns the exit status; *recorded is set when the database changed. */
/* Whether the archive describes a machine the database can hold: 0, or 1
 * with the error said. */
static int machine_refused(const char *path, const struct run_archive *a, const struct cpu_info *cpu)
{
	char why[512];
	if (machine_problem(a, cpu, why, sizeof why)) {
		err("%s: %s; nothing was imported", path, why);
		return 1;
	}
	if (!vendor_known(cpu->vendor)) {
		err("%s: CPUID vendor '%s' is no vendor a CPU the database can hold reports (%s); nothing was imported",
		    path, cpu->vendor, vendor_list);
		return 1;
	}
	return 0;
}

/* Whether the archive's flavor is one of the database's and times only
 * strategies that flavor has: 0, or 1 with the error said. */
static int flavor_refused(const char *path, const char *db_path, const struct model *m, const struct run_archive *a)
{
	const struct flavor *f = flavor_named(m, a->flavor);
	if (!f || f->isa_level < 0) {
		if (!f)
			err("%s: flavor '%s' is not a flavor of %s; nothing was imported", path, a->flavor, db_path);
		return 1;
	}
	for (size_t i = 0; i < a->m.n; i++)
		if (!strategy_offered(a->m.points[i].strategy, f->isa_level, f->moves)) {
			err("%s: it times %s, which is not a strategy of flavor %s; nothing was imported", path,
			    strategy_name[a->m.points[i].strategy], a->flavor);
			return 1;
		}
	return 0;
}

/* How many points the regime check flags (derive/regime.h); summary.md
 * lists them. */
static void print_regime(const struct timings *t)
{
	struct regime_check c;
	regime_run(t, &c);
	if (c.n)
		printf("regime: %zu point%s timed faster at a longer length (artifacts to re-time)\n", c.n,
		       c.n == 1 ? "" : "s");
	else
		printf("regime: no point timed faster at a longer length\n");
	regime_free(&c);
}

/* Derives the archive's rule and records it under entry, or with dry_run
 * prints the evidence summary it would write. 0 or EXIT_FAIL. */
static int derive_and_record(const char *db_path, const char *path, int dry_run, const struct entry_choice *entry,
			     struct run_archive *a, const struct cpu_info *cpu, int moves, int *recorded)
{
	struct run_facts run = {.archive = a, .cpu = cpu, .moves = moves};
	struct timings t = {0};
	struct derived_rule rule;
	int rc = EXIT_FAIL;
	if (import_derive(a, &t, &rule, &run)) {
		err("%s: nothing was imported", path);
		timings_free(&t);
		return EXIT_FAIL;
	}
	print_rule("table", &rule);
	printf("      %s\n", rule.note);
	print_regime(&t);
	if (dry_run) {
		char *summary = evidence_summary(entry, &run, NULL);
		printf("\n%s\n--dry-run: nothing was written\n", summary);
		free(summary);
		rc = 0;
	} else {
		int done = record_run(db_path, entry, &run);
		if (done == 1)
			printf("%s: already imported (by an import that ran meanwhile); nothing changed\n", path);
		*recorded += done == 0;
		rc = done < 0 ? EXIT_FAIL : 0;
	}
	timings_free(&t);
	return rc;
}

static int import_one(const char *db_path, const char *name, int dry_run, const char *path, int *recorded)
{
	struct run_archive a;
	char why[512];
	if (archive_load(path, &a, why, sizeof why)) {
		err("%s: %s; nothing was imported", path, why);
		return EXIT_FAIL;
	}
	struct cpu_info cpu;
	cpu_decode(&a.cpuid, &cpu);
	int rc = EXIT_FAIL;
	char sig[96], earlier[128];
	cpu_signature_text(&cpu, sig, sizeof sig);
	/* One read of the database serves the flavor and the entry: nothing is
	 * written before record_run, which reads it again under its lock. */
	struct model m;
	if (machine_refused(path, &a, &cpu) || model_load_unfiled(&m, db_path) || flavor_refused(path, db_path, &m, &a))
		goto out;
	if (!dry_run && record_imported_as(db_path, a.sha256, earlier, sizeof earlier)) {
		printf("%s: already imported as run %s; nothing changed\n", path, earlier);
		rc = 0;
		goto out;
	}
	struct entry_choice entry;
	int chosen = record_choose_entry(db_path, &m, &cpu, name, &entry);
	if (chosen) {
		err("%s: nothing was imported", path);
		rc = chosen == 2 ? EXIT_USAGE : EXIT_FAIL;
		goto out;
	}
	printf("%s: %s, %s%s%s; %d passes, %zu points, measured %s\n", path, cpu.brand[0] ? cpu.brand : sig, sig,
	       cpu.guest ? ", guest of " : ", bare metal", cpu.guest ? cpu.hypervisor : "", a.m.passes, a.m.n, a.date);
	printf("entry: %s%s\n", entry.name, entry.is_new ? " (new)" : "");
	fflush(stdout); /* the derivation and the plot take a while: say what is being imported first */
	if (!dry_run && !plot_available())
		err("gnuplot is missing, and the evidence needs its plot (make deps); nothing was imported");
	else
		rc = derive_and_record(db_path, path, dry_run, &entry, &a, &cpu, flavor_named(&m, a.flavor)->moves, recorded);
out:
	archive_free(&a);
	return rc;
}

int import_archives(const char *db_path, const char *name, int dry_run, char **paths, int n_paths)
{
	int worst = 0, recorded = 0;
	interrupt_catch();
	for (int i = 0; i < n_paths; i++) {
		int before = recorded;
		int rc = import_one(db_path, name, dry_run, paths[i], &recorded);
		if (rc > worst)
			worst = rc;
		if (interrupt_came()) {
			err("%s: interrupted; %s", paths[i],
			    recorded > before ? "its run was recorded, and no archive after it" : "nothing was recorded");
			worst = EXIT_FAIL;
			break;
		}
	}
	if (recorded)
		printf("next: make    (regenerates out/ from the new rules), then make check\n");
	return worst;
}
