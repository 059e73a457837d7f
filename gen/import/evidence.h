/* The evidence folder of a probe run, evidence/<run id>/ next to the
 * database: run.archive (the raw timings, as the probe wrote them),
 * choice.csv, summary.md, plot.gp and table.png. It is written hidden and
 * appears whole, so a rule never links a partial one. Runs recorded before
 * the archive keep their timings in measurements.csv. */
#ifndef UARCHGEN_EVIDENCE_H
#define UARCHGEN_EVIDENCE_H

#include "run_facts.h"

/* The probe's archive, kept byte for byte: the one home of a run's timings. */
#define ARCHIVE_FILE "run.archive"

struct evidence_folder {
	char tmp[1200];   /* hidden, written first: evidence/.import-<pid>-XXXXXX */
	char final[1200]; /* evidence/<run id> */
	char run_id[128]; /* <entry>-<date>-<the archive's sha256, 6 hex digits> */
	char link[256];   /* the rule's evidence column: evidence/<run id>/summary.md */
};

/* Names the run after its archive's checksum and makes its hidden folder.
 * Nonzero after printing why. */
int evidence_prepare(struct evidence_folder *f, const char *db_path, const char *entry, const char *date,
		     const char *sha256);

/* Fills the hidden folder. Nonzero after printing why. */
int evidence_write(const struct evidence_folder *f, const struct entry_choice *entry, const struct run_facts *run);

/* Gives the hidden folder its final name; a folder there already that holds
 * the same archive (an import killed before its commit left it) gives way.
 * Call it holding the database's lock. Nonzero after printing why. */
int evidence_publish(const struct evidence_folder *f);

/* Removes a folder evidence_write wrote into, with what it holds. */
void evidence_remove(const char *dir);

/* The summary's text (malloc'd), also printed by --dry-run; run_id is NULL
 * when there is no folder to link. */
char *evidence_summary(const struct entry_choice *entry, const struct run_facts *run, const char *run_id);

/* summary.md's section on what the dispatch cost (evidence_dispatch.c). */
struct buf;
void summary_dispatch(struct buf *b, const struct run_facts *run);
/* Its part on the search, where the run searched (evidence_search.c). */
void summary_search(struct buf *b, const struct run_facts *run);
/* Its section on the points timed faster at a longer length (evidence_regime.c). */
void summary_regime(struct buf *b, const struct run_facts *run);

/* The table in a line: "0..32 small; 33..63 forward; 64.. forward, above
 * down", each band's strategy elsewhere, then the classes that differ. A
 * band takes at most 160 bytes: two 10-digit bounds and five class names
 * with their strategies. */
#define RULE_TEXT_MAX (MAX_BANDS * 160)
void rule_text(const struct derived_rule *r, char *out, size_t size);

#endif
