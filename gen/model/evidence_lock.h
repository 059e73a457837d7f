/* The lock on evidence/ beside the database (evidence_lock.c). An import
 * publishes a run's folder before it commits the run's rows, and a commit
 * can take seconds (a slow fsync): a load that checks evidence/ meanwhile
 * would find the folder without its run, and call it one a stopped import
 * left. So an import holds the lock exclusively while it records, and such
 * a load holds it shared while it reads. */
#ifndef UARCHGEN_EVIDENCE_LOCK_H
#define UARCHGEN_EVIDENCE_LOCK_H

/* Locks db_dir/evidence, shared (waiting a minute at most for an import,
 * saying so once) or exclusive (waiting as long as it takes: an import's
 * recording, or a load, is short). Returns a descriptor for
 * evidence_unlock; -2 when there is no evidence/ to lock (nothing can be
 * published there unlocked: an import creates it before it locks it); -1
 * after printing why it could not. db_path names the database in messages. */
int evidence_lock(const char *db_dir, const char *db_path, int exclusive);

void evidence_unlock(int fd);

#endif
