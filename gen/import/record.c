#include "record.h"

#include "../../common/util.h"
#include "../model/model.h"
#include "../model/evidence_lock.h"
#include "../model/rows.h"
#include "evidence.h"
#include "interrupt.h"

#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The entry whose CPUID range holds this CPU, or NULL. Which entry holds a
 * CPU does not depend on the flavor, and "" names none, so no rule is
 * resolved on the way. */
static const struct uarch *entry_holding(const struct model *m, const struct cpu_info *c)
{
	struct resolved_rule unused;
	return model_lookup(m, c->vendor, (int)c->family, (int)c->model, "", &unused);
}

int record_choose_entry(const char *db_path, const struct model *m, const struct cpu_info *cpu, const char *name,
			struct entry_choice *out)
{
	memset(out, 0, sizeof *out);
	if (name && !name_ok(name)) {
		fprintf(stderr, "uarchgen: --name '%s': an entry name is 1-31 of [a-z0-9_], starting with a letter\n", name);
		return 2;
	}
	/* m was read from db_path moments ago; a database that cannot be read
	 * now is still named before an entry is chosen from it. */
	if (access(db_path, R_OK) != 0) {
		fprintf(stderr, "uarchgen: %s: cannot open the database\n", db_path);
		return 1;
	}
	const struct uarch *holder = entry_holding(m, cpu);
	if (holder && name && strcmp(name, holder->name) != 0) {
		fprintf(stderr,
			"uarchgen: CPUID (%s family 0x%02x model 0x%02x) selects entry '%s'; --name %s contradicts it\n",
			cpu->vendor, cpu->family, cpu->model, holder->name, name);
		return 2;
	}
	if (!holder && !name) {
		fprintf(stderr,
			"uarchgen: no entry of %s covers %s family 0x%02x model 0x%02x; name a new one with --name NAME\n",
			db_path, cpu->vendor, cpu->family, cpu->model);
		return 2;
	}
	const struct uarch *named = holder ? holder : model_uarch(m, name);
	snprintf(out->name, sizeof out->name, "%s", named ? named->name : name);
	out->is_new = !named;
	if (named && strcmp(named->vendor, cpu->vendor) != 0) {
		fprintf(stderr, "uarchgen: entry '%s' is a %s entry; this CPU is %s\n", name, named->vendor, cpu->vendor);
		return 2;
	}
	return 0;
}

int exec_sql(sqlite3 *db, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "uarchgen: database: %s (%s)\n", msg ? msg : sqlite3_errmsg(db), sql);
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* Sets *need_range when no CPUID range holds this CPU yet. Read again under
 * the write lock: since record_choose_entry, minutes of measuring ago, another
 * writer may have added a range, and none can between this and the insert. */
static int check_range(const char *db_path, const struct entry_choice *entry, const struct cpu_info *c,
		       int *need_range)
{
	struct model now;
	if (model_load_unfiled(&now, db_path)) {
		fprintf(stderr, "uarchgen: %s: nothing was recorded\n", db_path);
		return -1;
	}
	const struct uarch *holder = entry_holding(&now, c);
	if (holder && strcmp(holder->name, entry->name) != 0) {
		fprintf(stderr, "uarchgen: %s: CPUID now selects entry '%s', not '%s'; nothing was recorded\n", db_path,
			holder->name, entry->name);
		return -1;
	}
	*need_range = !holder;
	return 0;
}

static int insert_entry(sqlite3 *db, const struct entry_choice *entry, const struct run_facts *run, int need_range)
{
	const struct cpu_info *c = run->cpu;
	char base[96], source[256];
	sqlite3_stmt *st = NULL;
	int rc = 0;
	cpu_signature_text(c, base, sizeof base);
	if (entry->is_new) {
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
	if (!rc && need_range) {
		snprintf(source, sizeof source, "probe: the CPUID of a %s, measured %s", c->brand[0] ? c->brand : base,
			 run->archive->date);
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
	return rc;
}

/* The run's row: it names the entry, the flavor and the evidence folder
 * that holds the raw timings (evidence/<id>/run.archive). */
static int insert_run(sqlite3 *db, const struct entry_choice *entry, const struct run_facts *run, const char *run_id)
{
	char base[96];
	sqlite3_stmt *st = NULL;
	cpu_signature_text(run->cpu, base, sizeof base);
	int rc = sqlite3_prepare_v2(db, "INSERT INTO run (id, uarch, flavor, measured_on, cpu_signature, points, "
					"archive_sha256) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
				    -1, &st, NULL) != SQLITE_OK;
	if (!rc) {
		sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, entry->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, run->archive->flavor, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, run->archive->date, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, base, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 6, (sqlite3_int64)run->table->n);
		sqlite3_bind_text(st, 7, run->archive->sha256, -1, SQLITE_STATIC);
		rc = sqlite3_step(st) != SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return rc;
}

static int upsert_rule(sqlite3 *db, const struct entry_choice *entry, const struct run_facts *run,
		       const char *evidence)
{
	const struct cpu_info *c = run->cpu;
	char sig[256], base[96];
	sqlite3_stmt *st = NULL;
	cpu_signature_text(c, base, sizeof base);
	snprintf(sig, sizeof sig, "%s, %s%s%s%s%s", base, c->brand, c->erms ? ", ERMS" : "", c->fsrm ? ", FSRM" : "",
		 c->avx2 ? ", AVX2" : "", c->avx512f ? ", AVX-512F" : "");
	char *method = xasprintf("probe version %d, derivation %d: every strategy at %zu points, min of %d samples x %d passes, lfence-fenced "
				 "rdtsc; ties within %.1f%% go to the baseline; worst regret %.3f, median %.3f, "
				 "worst against the baseline %.3f%s",
				 run->archive->probe_version, DERIVE_VERSION, run->table->n, run->archive->samples, run->archive->m.passes, run->rule->noise * 100, run->rule->worst_regret,
				 run->rule->median_regret, run->rule->worst_vs_baseline,
				 c->guest ? "; hypervisor guest" : "");
	int rc = sqlite3_prepare_v2(db,
				    "INSERT INTO rule (uarch, flavor, above_max, below_max, align_dst, evidence, method, "
				    "measured_on, cpu_signature, hypervisor, zero_mod, near_max, overlap_below, overlap_above, "
				    "overlap_below_max, overlap_above_max) "
				    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16) "
				    "ON CONFLICT (uarch, flavor) DO UPDATE SET above_max = excluded.above_max, "
				    "near_max = excluded.near_max, "
				    "below_max = excluded.below_max, zero_mod = excluded.zero_mod, align_dst = excluded.align_dst, "
				    "evidence = excluded.evidence, method = excluded.method, "
				    "measured_on = excluded.measured_on, cpu_signature = excluded.cpu_signature, "
				    "hypervisor = excluded.hypervisor, overlap_below = excluded.overlap_below, "
				    "overlap_above = excluded.overlap_above, overlap_below_max = excluded.overlap_below_max, "
				    "overlap_above_max = excluded.overlap_above_max",
				    -1, &st, NULL) != SQLITE_OK;
	if (!rc) {
		sqlite3_bind_text(st, 1, entry->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, run->archive->flavor, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, (int)run->rule->above_max);
		sqlite3_bind_int(st, 4, (int)run->rule->below_max);
		sqlite3_bind_int(st, 5, run->rule->align_dst);
		sqlite3_bind_text(st, 6, evidence, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 7, method, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 8, run->archive->date, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 9, sig, -1, SQLITE_STATIC);
		if (c->guest)
			sqlite3_bind_text(st, 10, c->hypervisor, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 10);
		sqlite3_bind_int(st, 11, run->rule->zero_mod);
		sqlite3_bind_int(st, 12, (int)run->rule->near_max);
		for (int way = DIR_UP; way <= DIR_DOWN; way++)
			if (run->rule->stand_in[way])
				sqlite3_bind_text(st, 13 + way, strategy_name[run->rule->stand_in[way] - 1], -1, SQLITE_STATIC);
			else
				sqlite3_bind_null(st, 13 + way);
		for (int way = DIR_UP; way <= DIR_DOWN; way++)
			if (run->rule->stand_in_max[way])
				sqlite3_bind_int64(st, 15 + way, run->rule->stand_in_max[way]);
			else
				sqlite3_bind_null(st, 15 + way);
		rc = sqlite3_step(st) != SQLITE_DONE;
	}
	sqlite3_finalize(st);
	free(method);
	return rc;
}

/* The table replaces the entry's old one, and a measurement ends any
 * inheritance the entry had for this flavor. */
static int replace_bands(sqlite3 *db, const struct entry_choice *entry, const struct run_facts *run)
{
	static const char *const clear[] = {"DELETE FROM rule_band WHERE uarch = ?1 AND flavor = ?2",
					    "DELETE FROM inherit WHERE uarch = ?1 AND flavor = ?2"};
	sqlite3_stmt *st = NULL;
	int rc = 0;
	for (size_t i = 0; !rc && i < 2; i++) {
		rc = sqlite3_prepare_v2(db, clear[i], -1, &st, NULL) != SQLITE_OK;
		if (!rc) {
			sqlite3_bind_text(st, 1, entry->name, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 2, run->archive->flavor, -1, SQLITE_STATIC);
			rc = sqlite3_step(st) != SQLITE_DONE;
		}
		sqlite3_finalize(st);
		st = NULL;
	}
	rc = rc || sqlite3_prepare_v2(db, "INSERT INTO rule_band (uarch, flavor, length_lo, length_hi, zero, above, "
					  "near, below, elsewhere) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
				      -1, &st, NULL) != SQLITE_OK;
	for (int i = 0; !rc && i < run->rule->n_bands; i++) {
		const struct band *b = &run->rule->bands[i];
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, entry->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, run->archive->flavor, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, b->lo);
		if (b->hi == BAND_UNBOUNDED)
			sqlite3_bind_null(st, 4);
		else
			sqlite3_bind_int64(st, 4, b->hi);
		for (int c = 0; c < N_DISTANCE_CLASSES; c++)
			sqlite3_bind_text(st, 5 + c, strategy_name[b->strategy[c]], -1, SQLITE_STATIC);
		rc = sqlite3_step(st) != SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return rc;
}

int record_rule_rows(sqlite3 *db, const struct entry_choice *entry, const struct run_facts *run, const char *evidence)
{
	return upsert_rule(db, entry, run, evidence) || replace_bands(db, entry, run);
}

/* One transaction: the database is locked first (waiting for another
 * import's transaction if need be), the rows go in, then the evidence folder
 * takes its final name, then the transaction commits. Only a kill inside
 * the commit itself can leave a published folder without its rows; a kill
 * anywhere before leaves the hidden folder (ignored by git) and the
 * database as it was. */
/* The id of the run recorded from this archive, into id; 0 when there is none. */
static int imported_as(sqlite3 *db, const char *sha256, char *id, size_t size)
{
	sqlite3_stmt *st = NULL;
	int found = 0;
	if (sqlite3_prepare_v2(db, "SELECT id FROM run WHERE archive_sha256 = ?1", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, sha256, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW) {
			snprintf(id, size, "%s", (const char *)sqlite3_column_text(st, 0));
			found = 1;
		}
	}
	sqlite3_finalize(st);
	return found;
}

int record_imported_as(const char *db_path, const char *sha256, char *id, size_t size)
{
	sqlite3 *db;
	int found = 0;
	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK)
		found = imported_as(db, sha256, id, size);
	sqlite3_close(db);
	return found;
}

/* Returns 0 recorded, 1 already recorded (by an import that ran meanwhile), -1 failed. */
static int record_both(const char *db_path, const struct entry_choice *entry, const struct run_facts *run,
		       struct evidence_folder *ev)
{
	sqlite3 *db;
	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		fprintf(stderr, "uarchgen: %s: cannot open for writing: %s\n", db_path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return -1;
	}
	sqlite3_busy_timeout(db, 60000);
	int need_range = 0, published = 0;
	char earlier[128];
	int rc = exec_sql(db, "PRAGMA foreign_keys = ON") || exec_sql(db, "BEGIN IMMEDIATE");
	if (!rc && imported_as(db, run->archive->sha256, earlier, sizeof earlier)) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_close(db);
		evidence_remove(ev->tmp);
		return 1;
	}
	rc = rc || check_range(db_path, entry, run->cpu, &need_range);
	if (!rc && (insert_entry(db, entry, run, need_range) || insert_run(db, entry, run, ev->run_id) ||
		    record_rule_rows(db, entry, run, ev->link))) {
		fprintf(stderr, "uarchgen: %s: %s; nothing was recorded\n", db_path, sqlite3_errmsg(db));
		rc = 1;
	}
	/* The rows as the generator will read them, before they are committed
	 * (the evidence folder is not published yet, so unfiled). */
	struct model after;
	if (!rc && model_load_open(&after, db, db_path)) {
		fprintf(stderr, "uarchgen: %s: the generator would refuse the rule; nothing was recorded\n", db_path);
		rc = 1;
	}
	if (!rc) {
		published = evidence_publish(ev) == 0;
		rc = !published;
	}
	rc = rc || exec_sql(db, "COMMIT");
	if (rc) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		evidence_remove(published ? ev->final : ev->tmp);
	}
	sqlite3_close(db);
	return rc ? -1 : 0;
}

int record_run(const char *db_path, const struct entry_choice *entry, const struct run_facts *run)
{
	struct evidence_folder ev;
	if (interrupt_came())
		return -1;
	if (evidence_prepare(&ev, db_path, entry->name, run->archive->date, run->archive->sha256))
		return -1;
	if (evidence_write(&ev, entry, run) || interrupt_came()) {
		if (!interrupt_came())
			fprintf(stderr, "uarchgen: nothing was recorded\n");
		evidence_remove(ev.tmp);
		return -1;
	}

	/* From here the evidence and the database change together: a Ctrl-C
	 * waits until both are done or both are undone. */
	sigset_t old;
	signals_hold(&old);
	int rc = -1;
	/* gen reads evidence/ under this lock: it must not find the folder
	 * published before the rows that name it are committed. */
	const char *slash = strrchr(db_path, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash - db_path), db_path) : xstrdup(".");
	int lock = interrupt_came() ? -1 : evidence_lock(dir, db_path, 1);
	free(dir);
	if (lock == -1)
		evidence_remove(ev.tmp);
	else
		rc = record_both(db_path, entry, run, &ev);
	evidence_unlock(lock);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc == 0) {
		char text[RULE_TEXT_MAX];
		rule_text(run->rule, text, sizeof text);
		printf("recorded: %s's %s rule, above_max %u, near_max %u, below_max %u: %s; evidence %s\n", entry->name,
		       run->archive->flavor, run->rule->above_max, run->rule->near_max, run->rule->below_max, text, ev.link);
	}
	return rc;
}
