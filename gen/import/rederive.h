/* uarchgen rederive: every recorded run derived again from its archive,
 * with the current derivation (derive/derive.h, DERIVE_VERSION), so that
 * an improved derivation reaches every core without measuring it again. */
#ifndef UARCHGEN_REDERIVE_H
#define UARCHGEN_REDERIVE_H

/* Derives each run of db_path that has an archive (evidence/<run>/
 * run.archive) again; writes each evidence folder again and replaces each
 * rule that cites one of them, all or nothing, in one transaction. dry_run
 * derives and prints, writing nothing. only[0..n_only), when n_only > 0,
 * names the runs to derive again, the others left alone. Returns the exit status: 0, or 1
 * after printing why (a missing or altered archive, an interrupt: nothing
 * changed). */
int rederive_runs(const char *db_path, int dry_run, char **only, int n_only);

#endif
