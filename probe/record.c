#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int name_ok(const char *s)
{
	if (!*s || strlen(s) > 31 || *s < 'a' || *s > 'z')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

int record_choose_entry(const char *db_path, const struct cpu_info *cpu, const char *name, struct entry_choice *out)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	memset(out, 0, sizeof *out);
	if (name && !name_ok(name)) {
		fprintf(stderr, "probe: --name '%s': an entry name is 1-31 of [a-z0-9_], starting with a letter\n", name);
		return 2;
	}
	if (access(db_path, R_OK) != 0 || sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		fprintf(stderr, "probe: %s: cannot open the database\n", db_path);
		return 1;
	}
	const char *sql = "SELECT u.name FROM cpuid_range r JOIN uarch u ON u.name = r.uarch "
			  "WHERE u.vendor = ?1 AND r.family = ?2 AND ?3 BETWEEN r.model_lo AND r.model_hi";
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "probe: %s: %s\n", db_path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return 1;
	}
	sqlite3_bind_text(st, 1, cpu->vendor, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, (int)cpu->family);
	sqlite3_bind_int(st, 3, (int)cpu->model);
	int found = sqlite3_step(st) == SQLITE_ROW;
	if (found)
		snprintf(out->name, sizeof out->name, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	int rc = 0;
	if (found && name && strcmp(name, out->name) != 0) {
		fprintf(stderr,
			"probe: CPUID (%s family 0x%02x model 0x%02x) selects entry '%s'; --name %s contradicts it\n",
			cpu->vendor, cpu->family, cpu->model, out->name, name);
		rc = 2;
	} else if (!found && !name) {
		fprintf(stderr,
			"probe: no entry of %s covers %s family 0x%02x model 0x%02x; name a new one with --name NAME\n",
			db_path, cpu->vendor, cpu->family, cpu->model);
		rc = 2;
	} else if (!found) {
		snprintf(out->name, sizeof out->name, "%s", name);
		out->is_new = 1;
		if (sqlite3_prepare_v2(db, "SELECT vendor FROM uarch WHERE name = ?1", -1, &st, NULL) == SQLITE_OK) {
			sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
			if (sqlite3_step(st) == SQLITE_ROW) {
				if (strcmp((const char *)sqlite3_column_text(st, 0), cpu->vendor) != 0) {
					fprintf(stderr, "probe: entry '%s' is a %s entry; this CPU is %s\n", name,
						(const char *)sqlite3_column_text(st, 0), cpu->vendor);
					rc = 2;
				}
				out->is_new = 0; /* an existing entry gains this model */
			}
			sqlite3_finalize(st);
		}
	}
	sqlite3_close(db);
	return rc;
}

static const unsigned int shown_distances[] = {0, 1, 16, 31, 32, 33, 64, 2048, 4095};

static void add(char **s, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char **s, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	*s = realloc(*s, *len + (size_t)n + 1);
	if (!*s) {
		fprintf(stderr, "probe: out of memory\n");
		exit(1);
	}
	va_start(ap, fmt);
	vsnprintf(*s + *len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*len += (size_t)n;
}

char *record_summary(const struct entry_choice *entry, const struct run_facts *run, const char *folder)
{
	const struct cpu_info *c = run->cpu;
	char sig[96];
	char *s = NULL;
	size_t len = 0;
	cpu_signature_text(c, sig, sizeof sig);
	add(&s, &len, "# %s, %s flavor: window %d, align_dst %d\n\n", entry->name, run->flavor, run->rule->window,
	    run->rule->align_dst);
	add(&s, &len, "Measured %s by the probe (probe/).%s\n\n", run->date,
	    entry->is_new ? " The entry is new: no CPUID range of the database held this CPU." : "");
	add(&s, &len, "| | |\n|---|---|\n");
	add(&s, &len, "| CPU | %s |\n| CPUID | %s (signature 0x%08x) |\n", c->brand[0] ? c->brand : "(no brand string)",
	    sig, c->signature);
	add(&s, &len, "| features | ERMS %s, FSRM %s, AVX2 %s, AVX-512F %s |\n", c->erms ? "yes" : "no",
	    c->fsrm ? "yes" : "no", c->avx2 ? "yes" : "no", c->avx512f ? "yes" : "no");
	if (c->guest)
		add(&s, &len,
		    "| hypervisor | **%s guest.** The CPUID family and model are what the hypervisor presents, which "
		    "need not be the host's core; timings include virtualisation. |\n",
		    c->hypervisor);
	else
		add(&s, &len, "| hypervisor | none reported (bare metal) |\n");
	add(&s, &len, "\n## Rule\n\nwindow %d, align_dst %d: %s.\n\n", run->rule->window, run->rule->align_dst,
	    run->rule->note);
	add(&s, &len, "## Method\n\n");
	add(&s, &len,
	    "- Routines: the generated `uc_copy_forward` (one `rep movsb`, no alignment head) against the "
	    "generated `uc_copy_down` (8-byte stores, highest first), kernel flavor.\n"
	    "- Timer: `rdtsc` between `lfence`s; many copies per sample; the minimum of %d samples per pass; the "
	    "timing loop's overhead (%.1f ticks per call) subtracted.\n"
	    "- Source page-aligned, destination (distance mod 4096) above it and beyond its end.\n"
	    "- A distance counts for the descending copy when it beats `rep movsb` by more than %.0f%% at every "
	    "length. An alignment counts when the median misaligned copy is %.0f%% slower than the slowest aligned "
	    "one at every length.\n",
	    run->samples, run->overhead, run->margin * 100, run->margin * 100);
	add(&s, &len, "\n## Stability\n\n%d passes; the rule derived from each pass alone:\n\n| pass | window | align_dst |\n|---|---|---|\n",
	    run->passes);
	for (int k = 0; k < run->passes && k < 16; k++)
		add(&s, &len, "| %d | %d | %d |\n", k + 1, run->pass_window[k], run->pass_align[k]);
	add(&s, &len,
	    "\nThe rule above is derived from the minimum over all passes. Spread of a point's pass minima "
	    "((max - min) / min): median %.1f%%, worst %.1f%%.\n",
	    run->median_spread * 100, run->worst_spread * 100);
	add(&s, &len, "\n## Ticks per copy: rep movsb / descending\n\n| length |");
	for (size_t k = 0; k < sizeof shown_distances / sizeof *shown_distances; k++)
		add(&s, &len, " d=%u |", shown_distances[k]);
	add(&s, &len, "\n|---|");
	for (size_t k = 0; k < sizeof shown_distances / sizeof *shown_distances; k++)
		add(&s, &len, "---|");
	add(&s, &len, "\n");
	unsigned int lengths[8];
	size_t n_lengths = 0;
	for (size_t i = 0; i < run->table->n && n_lengths < 8; i++) {
		const struct row *r = &run->table->rows[i];
		size_t j;
		if (r->strategy != FORWARD)
			continue;
		for (j = 0; j < n_lengths && lengths[j] != r->length; j++)
			;
		if (j == n_lengths)
			lengths[n_lengths++] = r->length;
	}
	for (size_t i = 0; i < n_lengths; i++) {
		add(&s, &len, "| %u |", lengths[i]);
		for (size_t k = 0; k < sizeof shown_distances / sizeof *shown_distances; k++) {
			const struct row *f = table_find(run->table, FORWARD, lengths[i], shown_distances[k], ANY_MISALIGN);
			const struct row *d = table_find(run->table, DOWN, lengths[i], shown_distances[k], ANY_MISALIGN);
			if (f && d)
				add(&s, &len, " %.0f / %.0f |", f->ticks, d->ticks);
			else
				add(&s, &len, " - |");
		}
		add(&s, &len, "\n");
	}
	if (folder)
		add(&s, &len,
		    "\nEvery timing: [measurements.csv](measurements.csv). Time against distance: "
		    "![time against distance](distance.png) (drawn by [plot.gp](plot.gp)). Run id `%s`.\n",
		    folder);
	return s;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static char *plot_script(const struct run_facts *run, const char *title)
{
	char *s = NULL;
	size_t len = 0;
	add(&s, &len,
	    "# Draws distance.png from measurements.csv: gnuplot plot.gp\n"
	    "set terminal pngcairo size 1500,950 font ',9' noenhanced\n"
	    "set output 'distance.png'\n"
	    "set datafile separator ','\n"
	    "set logscale y\n"
	    "set xrange [0:4095]\n"
	    "set xtics 512\n"
	    "set grid\n"
	    "set key top right\n"
	    "set multiplot layout 2,3 title \"%s: TSC ticks per copy against (dst - src) mod 4096; window %d\"\n",
	    title, run->rule->window);
	unsigned int seen[8];
	size_t n = 0;
	for (size_t i = 0; i < run->table->n && n < 6; i++) {
		const struct row *r = &run->table->rows[i];
		size_t j;
		if (r->strategy != FORWARD)
			continue;
		for (j = 0; j < n && seen[j] != r->length; j++)
			;
		if (j < n)
			continue;
		seen[n++] = r->length;
		add(&s, &len,
		    "set title '%u bytes'\nset xlabel 'distance (bytes)'\nset ylabel 'ticks per copy'\n"
		    "plot 'measurements.csv' every ::1 using 3:(strcol(1) eq 'forward' && $2 == %u && $5 > 0 ? $5 : 1/0) "
		    "with linespoints pt 7 ps 0.3 title 'rep movsb (forward)', "
		    "'' every ::1 using 3:(strcol(1) eq 'down' && $2 == %u && $5 > 0 ? $5 : 1/0) "
		    "with linespoints pt 7 ps 0.3 title 'descending copy'\n",
		    r->length, r->length, r->length);
	}
	add(&s, &len, "unset multiplot\n");
	return s;
}

static int run_gnuplot(const char *dir)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (chdir(dir) != 0)
			_exit(127);
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 1);
		execlp("gnuplot", "gnuplot", "plot.gp", (char *)NULL);
		_exit(127);
	}
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		fprintf(stderr, "probe: gnuplot is missing (apt-get install gnuplot-nox, or make deps)\n");
		return -1;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static void remove_folder(const char *dir)
{
	static const char *const files[] = {"measurements.csv", "summary.md", "plot.gp", "distance.png"};
	for (size_t i = 0; i < 4; i++) {
		char path[1400];
		snprintf(path, sizeof path, "%.1200s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

static int exec_sql(sqlite3 *db, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "probe: database: %s (%s)\n", msg ? msg : sqlite3_errmsg(db), sql);
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int write_database(const char *db_path, const struct entry_choice *entry, const struct run_facts *run,
			  const char *run_id, const char *evidence)
{
	const struct cpu_info *c = run->cpu;
	char sig[256], base[96];
	cpu_signature_text(c, base, sizeof base);
	snprintf(sig, sizeof sig, "%s, %s%s%s%s%s", base, c->brand, c->erms ? ", ERMS" : "", c->fsrm ? ", FSRM" : "",
		 c->avx2 ? ", AVX2" : "", c->avx512f ? ", AVX-512F" : "");
	char *method = NULL;
	size_t mlen = 0;
	add(&method, &mlen,
	    "probe: uc_copy_forward (rep movsb) against uc_copy_down at %zu points, min of %d samples x %d passes, "
	    "lfence-fenced rdtsc, margin %.0f%%%s",
	    run->table->n, run->samples, run->passes, run->margin * 100, c->guest ? "; hypervisor guest" : "");

	sqlite3 *db;
	sqlite3_stmt *st = NULL;
	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		fprintf(stderr, "probe: %s: cannot open for writing: %s\n", db_path, sqlite3_errmsg(db));
		sqlite3_close(db);
		free(method);
		return -1;
	}
	sqlite3_busy_timeout(db, 5000);
	int rc = exec_sql(db, "PRAGMA foreign_keys = ON") || exec_sql(db, "BEGIN IMMEDIATE");
	if (!rc && entry->is_new) {
		rc = sqlite3_prepare_v2(db, "INSERT INTO uarch (name, vendor, example, cpuid_limit) VALUES (?1, ?2, ?3, NULL)",
					-1, &st, NULL) != SQLITE_OK;
		if (!rc) {
			sqlite3_bind_text(st, 1, entry->name, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 2, c->vendor, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 3, c->brand[0] ? c->brand : base, -1, SQLITE_STATIC);
			rc = sqlite3_step(st) != SQLITE_DONE;
		}
		sqlite3_finalize(st);
	}
	int need_range = 0;
	if (!rc) {
		/* A new entry, or a named one gaining this model, needs a CPUID range. */
		sqlite3_prepare_v2(db, "SELECT count(*) FROM cpuid_range r JOIN uarch u ON u.name = r.uarch WHERE "
				       "u.vendor = ?1 AND r.family = ?2 AND ?3 BETWEEN r.model_lo AND r.model_hi",
				   -1, &st, NULL);
		sqlite3_bind_text(st, 1, c->vendor, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 2, (int)c->family);
		sqlite3_bind_int(st, 3, (int)c->model);
		need_range = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 0;
		sqlite3_finalize(st);
	}
	if (!rc && need_range) {
		char source[256];
		snprintf(source, sizeof source, "probe: the CPUID of a %s, measured %s", c->brand[0] ? c->brand : base,
			 run->date);
		rc = sqlite3_prepare_v2(db, "INSERT INTO cpuid_range (uarch, family, model_lo, model_hi, source) "
					    "VALUES (?1, ?2, ?3, ?3, ?4)",
					-1, &st, NULL) != SQLITE_OK;
		if (!rc) {
			sqlite3_bind_text(st, 1, entry->name, -1, SQLITE_STATIC);
			sqlite3_bind_int(st, 2, (int)c->family);
			sqlite3_bind_int(st, 3, (int)c->model);
			sqlite3_bind_text(st, 4, source, -1, SQLITE_STATIC);
			rc = sqlite3_step(st) != SQLITE_DONE;
		}
		sqlite3_finalize(st);
	}
	if (!rc) {
		rc = sqlite3_prepare_v2(db, "INSERT INTO measurement (run, cpu_signature, flavor, strategy, length, distance, "
					    "misalign, ticks, spread) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
					-1, &st, NULL) != SQLITE_OK;
		for (size_t i = 0; !rc && i < run->table->n; i++) {
			const struct row *r = &run->table->rows[i];
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 2, base, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 3, run->flavor, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 4, strategy_name[r->strategy], -1, SQLITE_STATIC);
			sqlite3_bind_int(st, 5, (int)r->length);
			sqlite3_bind_int(st, 6, (int)r->distance);
			sqlite3_bind_int(st, 7, (int)r->misalign);
			sqlite3_bind_double(st, 8, r->ticks);
			sqlite3_bind_double(st, 9, r->spread);
			rc = sqlite3_step(st) != SQLITE_DONE;
		}
		sqlite3_finalize(st);
	}
	if (!rc) {
		rc = sqlite3_prepare_v2(db,
					"INSERT INTO rule (uarch, flavor, window, align_dst, evidence, method, measured_on, "
					"cpu_signature, hypervisor) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
					"ON CONFLICT (uarch, flavor) DO UPDATE SET window = excluded.window, "
					"align_dst = excluded.align_dst, evidence = excluded.evidence, method = excluded.method, "
					"measured_on = excluded.measured_on, cpu_signature = excluded.cpu_signature, "
					"hypervisor = excluded.hypervisor",
					-1, &st, NULL) != SQLITE_OK;
		if (!rc) {
			sqlite3_bind_text(st, 1, entry->name, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 2, run->flavor, -1, SQLITE_STATIC);
			sqlite3_bind_int(st, 3, run->rule->window);
			sqlite3_bind_int(st, 4, run->rule->align_dst);
			sqlite3_bind_text(st, 5, evidence, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 6, method, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 7, run->date, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 8, sig, -1, SQLITE_STATIC);
			if (c->guest)
				sqlite3_bind_text(st, 9, c->hypervisor, -1, SQLITE_STATIC);
			else
				sqlite3_bind_null(st, 9);
			rc = sqlite3_step(st) != SQLITE_DONE;
		}
		sqlite3_finalize(st);
	}
	if (rc)
		fprintf(stderr, "probe: %s: %s; nothing was recorded\n", db_path, sqlite3_errmsg(db));
	rc = rc || exec_sql(db, "COMMIT");
	if (rc)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(db);
	free(method);
	return rc ? -1 : 0;
}

int record_run(const char *db_path, const struct entry_choice *entry, const struct run_facts *run)
{
	char dir[1024], tmp[1200], final[1200], run_id[128], evidence[256], path[1400];
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
	snprintf(run_id, sizeof run_id, "%s-%s", entry->name, run->date);
	struct stat sb;
	for (int k = 2; ; k++) {
		snprintf(final, sizeof final, "%s/%s", dir, run_id);
		if (stat(final, &sb) != 0)
			break;
		snprintf(run_id, sizeof run_id, "%s-%s-%d", entry->name, run->date, k);
	}
	snprintf(evidence, sizeof evidence, "evidence/%s/summary.md", run_id);

	snprintf(tmp, sizeof tmp, "%s/.probe-XXXXXX", dir);
	if (!mkdtemp(tmp) || chmod(tmp, 0755) != 0) {
		fprintf(stderr, "probe: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	char *summary = record_summary(entry, run, run_id);
	char title[160];
	snprintf(title, sizeof title, "%s (%s)%s", entry->name, run->cpu->brand, run->cpu->guest ? ", guest" : "");
	char *plot = plot_script(run, title);
	int rc = 0;
	snprintf(path, sizeof path, "%s/measurements.csv", tmp);
	rc = rc || table_write_csv(run->table, path);
	snprintf(path, sizeof path, "%s/summary.md", tmp);
	rc = rc || write_text(path, summary);
	snprintf(path, sizeof path, "%s/plot.gp", tmp);
	rc = rc || write_text(path, plot);
	if (rc)
		fprintf(stderr, "probe: %s: cannot write the evidence: %s\n", tmp, strerror(errno));
	rc = rc || run_gnuplot(tmp);
	free(summary);
	free(plot);
	if (rc) {
		fprintf(stderr, "probe: nothing was recorded\n");
		remove_folder(tmp);
		return -1;
	}

	/* From here the evidence and the database change together: a Ctrl-C
	 * waits until both are done or both are undone. */
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (rename(tmp, final) != 0) {
		fprintf(stderr, "probe: %s: %s; nothing was recorded\n", final, strerror(errno));
		remove_folder(tmp);
		rc = -1;
	} else if (write_database(db_path, entry, run, run_id, evidence) != 0) {
		remove_folder(final);
		rc = -1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!rc)
		printf("recorded: %s's %s rule, window %d, align_dst %d; evidence %s\n", entry->name, run->flavor,
		       run->rule->window, run->rule->align_dst, evidence);
	return rc;
}
