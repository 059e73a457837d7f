#include "evidence.h"

#include "../gen/util.h"
#include "plot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const unsigned int shown_distances[] = {0, 1, 16, 31, 32, 33, 64, 2048, 4095};
#define N_SHOWN (sizeof shown_distances / sizeof *shown_distances)

/* The table keeps no list of the plan's lengths: its forward rows give them. */
static size_t forward_lengths(const struct table *t, unsigned int *lengths, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n && n < max; i++) {
		const struct row *r = &t->rows[i];
		size_t j;
		if (r->strategy != FORWARD)
			continue;
		for (j = 0; j < n && lengths[j] != r->length; j++)
			;
		if (j == n)
			lengths[n++] = r->length;
	}
	return n;
}

static void summary_head(struct buf *b, const struct entry_choice *entry, const struct run_facts *run)
{
	const struct cpu_info *c = run->cpu;
	char sig[96];
	cpu_signature_text(c, sig, sizeof sig);
	buf_printf(b, "# %s, %s flavor: window %d, align_dst %d\n\n", entry->name, run->flavor, run->rule->window,
		   run->rule->align_dst);
	buf_printf(b, "Measured %s by the probe (probe/).%s\n\n", run->date,
		   entry->is_new ? " The entry is new: no CPUID range of the database held this CPU." : "");
	buf_printf(b, "| | |\n|---|---|\n");
	buf_printf(b, "| CPU | %s |\n| CPUID | %s (signature 0x%08x) |\n", c->brand[0] ? c->brand : "(no brand string)",
		   sig, c->signature);
	buf_printf(b, "| features | ERMS %s, FSRM %s, AVX2 %s, AVX-512F %s |\n", c->erms ? "yes" : "no",
		   c->fsrm ? "yes" : "no", c->avx2 ? "yes" : "no", c->avx512f ? "yes" : "no");
	if (c->guest)
		buf_printf(b,
			   "| hypervisor | **%s guest.** The CPUID family and model are what the hypervisor presents, "
			   "which need not be the host's core; timings include virtualisation. |\n",
			   c->hypervisor);
	else
		buf_printf(b, "| hypervisor | none reported (bare metal) |\n");
	buf_printf(b, "\n## Rule\n\nwindow %d, align_dst %d: %s.\n\n", run->rule->window, run->rule->align_dst,
		   run->rule->note);
}

static void summary_method(struct buf *b, const struct run_facts *run)
{
	buf_printf(b, "## Method\n\n");
	buf_printf(b,
		   "- Routines: the generated `uc_copy_forward` (one `rep movsb`, no alignment head) against the "
		   "generated `uc_copy_down` (8-byte stores, highest first), %s flavor.\n"
		   "- Timer: `rdtsc` between `lfence`s; many copies per sample; the minimum of %d samples per pass; "
		   "the timing loop's overhead (%.1f ticks per call) subtracted.\n"
		   "- Source page-aligned, destination (distance mod 4096) above it and beyond its end.\n"
		   "- A distance counts for the descending copy when it beats `rep movsb` by more than %.0f%% at every "
		   "length. An alignment counts when the median misaligned copy is %.0f%% slower than the slowest "
		   "aligned one at every length.\n",
		   run->flavor, run->samples, run->overhead, run->margin * 100, run->margin * 100);
}

static void summary_stability(struct buf *b, const struct run_facts *run)
{
	buf_printf(b, "\n## Stability\n\n%d passes; the rule derived from each pass alone:\n\n"
		      "| pass | window | align_dst |\n|---|---|---|\n",
		   run->passes);
	for (int k = 0; k < run->passes && k < 16; k++)
		buf_printf(b, "| %d | %d | %d |\n", k + 1, run->pass_window[k], run->pass_align[k]);
	buf_printf(b,
		   "\nThe rule above is derived from the minimum over all passes. Spread of a point's pass minima "
		   "((max - min) / min): median %.1f%%, worst %.1f%%.\n",
		   run->median_spread * 100, run->worst_spread * 100);
}

static void summary_ticks(struct buf *b, const struct table *t)
{
	buf_printf(b, "\n## Ticks per copy: rep movsb / descending\n\n| length |");
	for (size_t k = 0; k < N_SHOWN; k++)
		buf_printf(b, " d=%u |", shown_distances[k]);
	buf_printf(b, "\n|---|");
	for (size_t k = 0; k < N_SHOWN; k++)
		buf_printf(b, "---|");
	buf_printf(b, "\n");
	unsigned int lengths[8];
	size_t n_lengths = forward_lengths(t, lengths, 8);
	for (size_t i = 0; i < n_lengths; i++) {
		buf_printf(b, "| %u |", lengths[i]);
		for (size_t k = 0; k < N_SHOWN; k++) {
			const struct row *f = table_find(t, FORWARD, lengths[i], shown_distances[k], ANY_MISALIGN);
			const struct row *d = table_find(t, DOWN, lengths[i], shown_distances[k], ANY_MISALIGN);
			if (f && d)
				buf_printf(b, " %.0f / %.0f |", f->ticks, d->ticks);
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
	summary_stability(&b, run);
	summary_ticks(&b, run->table);
	if (run_id)
		buf_printf(&b,
			   "\nEvery timing: [measurements.csv](measurements.csv). Time against distance: "
			   "![time against distance](distance.png) (drawn by [plot.gp](plot.gp)). Run id `%s`.\n",
			   run_id);
	return b.data;
}

static char *plot_body(const struct entry_choice *entry, const struct run_facts *run)
{
	struct buf b = {0};
	buf_printf(&b,
		   "set datafile separator ','\n"
		   "set logscale y\n"
		   "set xrange [0:4095]\n"
		   "set xtics 512\n"
		   "set grid\n"
		   "set key top right\n"
		   "set multiplot layout 2,3 title \"%s (%s)%s: TSC ticks per copy against (dst - src) mod 4096; "
		   "window %d\"\n",
		   entry->name, run->cpu->brand, run->cpu->guest ? ", guest" : "", run->rule->window);
	unsigned int lengths[6];
	size_t n = forward_lengths(run->table, lengths, 6);
	for (size_t i = 0; i < n; i++)
		buf_printf(&b,
			   "set title '%u bytes'\nset xlabel 'distance (bytes)'\nset ylabel 'ticks per copy'\n"
			   "plot 'measurements.csv' every ::1 using 3:(strcol(1) eq 'forward' && $2 == %u && $5 > 0 "
			   "? $5 : 1/0) with linespoints pt 7 ps 0.3 title 'rep movsb (forward)', "
			   "'' every ::1 using 3:(strcol(1) eq 'down' && $2 == %u && $5 > 0 ? $5 : 1/0) "
			   "with linespoints pt 7 ps 0.3 title 'descending copy'\n",
			   lengths[i], lengths[i], lengths[i]);
	buf_printf(&b, "unset multiplot\n");
	return b.data;
}

int evidence_prepare(struct evidence_folder *f, const char *db_path, const char *entry, const char *date)
{
	char dir[1024];
	const char *slash = strrchr(db_path, '/');
	if (strlen(db_path) > 900) {
		fprintf(stderr, "probe: %.60s...: the database path is too long\n", db_path);
		return -1;
	}
	if (slash)
		snprintf(dir, sizeof dir, "%.*s/evidence", (int)(slash - db_path), db_path);
	else
		snprintf(dir, sizeof dir, "evidence");
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "probe: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	snprintf(f->run_id, sizeof f->run_id, "%s-%s", entry, date);
	struct stat sb;
	for (int k = 2;; k++) {
		snprintf(f->final, sizeof f->final, "%s/%s", dir, f->run_id);
		if (stat(f->final, &sb) != 0)
			break;
		snprintf(f->run_id, sizeof f->run_id, "%s-%s-%d", entry, date, k);
	}
	snprintf(f->link, sizeof f->link, "evidence/%s/summary.md", f->run_id);
	snprintf(f->tmp, sizeof f->tmp, "%s/.probe-XXXXXX", dir);
	/* mkdtemp makes it 0700; a published folder is read like any other. */
	if (!mkdtemp(f->tmp) || chmod(f->tmp, 0755) != 0) {
		fprintf(stderr, "probe: %s: %s\n", f->tmp, strerror(errno));
		return -1;
	}
	return 0;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

int evidence_write(const struct evidence_folder *f, const struct entry_choice *entry, const struct run_facts *run)
{
	char path[1400];
	char *summary = evidence_summary(entry, run, f->run_id);
	char *plot = plot_body(entry, run);
	int rc = 0;
	snprintf(path, sizeof path, "%s/measurements.csv", f->tmp);
	rc = rc || table_write_csv(run->table, path);
	snprintf(path, sizeof path, "%s/summary.md", f->tmp);
	rc = rc || write_text(path, summary);
	if (rc)
		fprintf(stderr, "probe: %s: cannot write the evidence: %s\n", f->tmp, strerror(errno));
	rc = rc || plot_png("probe", f->tmp, "plot.gp", "distance.png", 1500, 950, plot);
	free(summary);
	free(plot);
	return rc;
}

int evidence_publish(const struct evidence_folder *f)
{
	if (rename(f->tmp, f->final) == 0)
		return 0;
	fprintf(stderr, "probe: %s: %s\n", f->final, strerror(errno));
	return -1;
}

void evidence_remove(const char *dir)
{
	static const char *const files[] = {"measurements.csv", "summary.md", "plot.gp", "distance.png"};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char path[1400];
		snprintf(path, sizeof path, "%.1200s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}
