/* The run archive: everything a probe run found, as one text file that the
 * probe writes on the machine it measures and `uarchgen import` reads in
 * the repository. Line by line, in this order:
 *
 *   uarchcopy-run-archive 1          the format
 *   probe 1                          the probe's version (PROBE_VERSION)
 *   date 2026-11-30                  UTC
 *   kernel Linux 6.1.0 #1 SMP ...    uname, or "unknown"
 *   microcode 0xa0011d1              /proc/cpuinfo's, or "unknown"
 *   platform QEMU / Standard PC      DMI sys_vendor / product_name, or "unknown"
 *   hypervisor KVMKVMKVM             CPUID 0x40000000's vendor, or "none"
 *   cpuid LEAF SUBLEAF EAX EBX ECX EDX   one line per leaf read, 8 hex digits each
 *   flavor kernel                    the flavor whose strategies were timed
 *   samples 5                        samples per point and pass
 *   passes 3
 *   overhead 12.50                   ticks per empty call
 *   points 29139
 *   STRATEGY LENGTH DISTANCE MISALIGN T1 .. Tpasses   one line per point: its minimum in each pass
 *   dispatch 1 RANDOM SORTED ...     version 3: what the dispatch costs and the
 *                                    candidates the probe timed (dispatch.h)
 *   trials N ...                     version 7: the band trials (dispatch.h)
 *   small_trial ...                  version 8: the small trial (dispatch.h)
 *   shaped ...                       version 9: the shaped trial (dispatch.h)
 *   classes ...                      version 15: the classes trial (dispatch.h)
 *   grid_gate ...                    version 12: the grid gate (dispatch.h)
 *   repairs N ...                    version 21: the gate's repairs (repair.h)
 *   sha256 HEX                       of every byte before this line
 *
 * Every line ends in a newline; text fields are one printable line. */
#ifndef DERIVE_ARCHIVE_H
#define DERIVE_ARCHIVE_H

#include "cpuid.h"
#include "dispatch.h"
#include "points.h"

#define ARCHIVE_FORMAT 1
#define ARCHIVE_MAGIC "uarchcopy-run-archive"
/* The probe version this tree writes. It changes when the timing method or
 * the plan changes meaning, so that a run taken one way is never derived as
 * if it had been taken another; import takes the versions from
 * PROBE_VERSION_OLDEST up, which derive alike.
 *   1: each strategy called as its own routine (uc_copy_<strategy>).
 *   2: each strategy run through the flavor's table copy (memmove, or
 *      memcpy where the flavor has none) under a table that gives it every
 *      length and distance: the bodies the dispatch runs, with its cost.
 *   3: as 2, and the dispatch's cost under the random-size workload, and
 *      the final candidate tables timed on it (dispatch.h), through the
 *      table dispatch. Versions 1 and 2 derive with the default cost of a
 *      band.
 *   4: as 3, with the dispatch's tables and the candidates each compiled
 *      to the machine code gen writes for its tree (plan/encode.c), the
 *      dispatch's tables with one body for every strategy, so that their
 *      times differ in the branches alone.
 *   5: as 4, with every copy forward timed as it ships: in the user flavor
 *      the C library's memmove, which the drop-in library runs where a
 *      table copies forward everywhere, so that a candidate must beat the
 *      C library; in the kernel flavor the entry's own rep movsb, as in 4.
 *   6: as 5, on a workload stream of 65536 calls, which the branch
 *      predictors do not learn; 4096 before, partly learnt, so that a
 *      tree's time moved with its code's address (common/workload.h).
 *   7: as 6, with the band trials: each split of the kept table that the
 *      workload reaches, kept only where the table with it was faster
 *      than the table derived without it (dispatch.h); and a candidate
 *      that ties every copy forward on random sizes is out.
 *   8: as 7, with small_flat timed at every point small is, and the small
 *      trial: the kept table with small_flat in small's cells, kept only
 *      where it was faster on random sizes (dispatch.h).
 *   9: as 8, and where every candidate lost to every copy forward, the
 *      shaped trial: both trials run on the candidate fastest on random
 *      sizes, and the table they make is kept where it beats every copy
 *      forward as a candidate must (dispatch.h).
 *  10: as 9, with each strategy of the plan timed through its own entry,
 *      compiled as gen writes a table that gives it every copy (the
 *      entry, memmove's overlap compares, a jump to its routine), not
 *      through the table dispatch, whose code tree charged each strategy
 *      its code's depth (probe/measure.c).
 *  11: as 10, with every compiled table (the dispatch's, the candidates,
 *      the trials') timed in turns with rep movsb alone, one
 *      table after another, never two tables in turns with each other: on
 *      a Zen 4 guest two copies of one tree so timed ran 1.22x apart
 *      (probe/streams.h, time_against).
 *  12: as 11, and the grid gate: a kept table, compiled, against every
 *      copy forward as it ships at each point of make bench's grid, and
 *      refused where it loses beyond the noise (dispatch.h).
 *  13: as 12, in a flavor whose entry is memmove, with memmove's overlap
 *      compares only before a copy that goes one way: a copy that loads
 *      everything before it stores takes none (memmove.tpi), so that
 *      avx2_small, say, pays no more in memmove than in memcpy.
 *  14: as 13, with a strategy timed at a length that one of its pieces
 *      holds (plan/pieces.h) through an entry that jumps to that piece,
 *      past the body's own compares, as a compiled tree that has split its
 *      lengths at the piece's edges enters it: avx512_medium's compares at
 *      64 and 128, which no tree so cut runs, are no longer charged to it.
 *  15: as 14, and in the kernel flavor, where the run keeps every copy
 *      forward, the classes trial: every copy forward but in the classes
 *      the trials' table copies its own way, kept where it is no slower
 *      than every copy forward beyond the noise (dispatch.h).
 *  16: as 15, with the short copies a patched memcpy or memmove holds
 *      after its tree (plan/layout.h) laid out there in every table the
 *      probe compiles, and each of them timed alone with its body right
 *      after its entry's first instructions, no jump: a jump out of the
 *      entry to them cost a Zen 4 guest 1-1.4 ticks a call.
 *  17: as 16, in a flavor whose entry is memmove, with its baseline, the
 *      C library's memmove, called where a call through a program's PLT
 *      lands, not through the static probe's .iplt slot, a jmp through a
 *      pointer that the tables, called directly, did not take: on a Zen
 *      4 guest the slot cost the C library about 0.8 ticks a call on
 *      random sizes (probe/flavor.c).
 *  18: as 17, with avx512_masked (0..63 bytes under one mask) timed,
 *      avx512_medium's pieces split at 63 and 128, the moves of a held
 *      copy's piece timed right after its entry, and every compiled
 *      table's second leaf laid out after its compare (plan/tree.h,
 *      falls), as the C library's AVX-512 memmove lays out 64..128
 *      bytes.
 *  19: as 18, with each band trial decided on the workload alone: a split
 *      stays only where the table with it is faster beyond the noise on
 *      random sizes (band_trial_merges). Before, a split faster on the
 *      sorted control stayed too: a Zen 4 guest's kernel run kept 0..48
 *      split at 15.36 ticks a call on random sizes against 14.26 whole
 *      (evidence/zen4-2026-12-05-8cbd47). And every compiled table's
 *      leaves past the first laid out after their compares where they
 *      are the side the size profile weighs most (plan/tree.c,
 *      falls_leaf), not its second leaf alone.
 *  20: as 19, with a distance-first tree's zero test of d mod zero_mod,
 *      where zero copies as elsewhere does, behind one compare of the
 *      last low class's bound (plan/tree_classes.c, low_gate): the classes trial
 *      of a Zen 4 guest's kernel run of version 19, the zero test first,
 *      took 17.79 ticks a call against rep movsb's 12.17
 *      (evidence/zen4-2026-12-05-6d7d96).
 *  21: as 20, with the grid gate repairing where it refused: a point
 *      that loses beyond the noise sends its cell to the next copy its
 *      measurements rank (derive/repair.h), the table checked again; the
 *      repairs recorded after the gate's line, whose verdict is the
 *      repaired table's. */
#define PROBE_VERSION 21
#define REPAIRS_VERSION 21
#define LOW_GATE_VERSION 20
#define WORKLOAD_SPLITS_VERSION 19
#define LEAVES_FALL_VERSION 19
#define FALLS_VERSION 18
#define HELD_COPIES_VERSION 16
#define CLASSES_TRIAL_VERSION 15
#define PIECES_VERSION 14
#define TABLES_APART_VERSION 11
#define GRID_GATE_VERSION 12
#define MEMMOVE_GUARD_VERSION 13
/* From version 11, the places each compared table is compiled and timed
 * at, the median of them (probe/placed.h). */
#define PLACES_TIMED 3
#define BAND_TRIALS_VERSION 7
#define SMALL_TRIAL_VERSION 8
#define SHAPED_TRIAL_VERSION 9
#define PROBE_VERSION_OLDEST 1
#define ARCHIVE_TEXT_MAX 200
/* An archive of the full plan is about 1.5 MB; this bounds what is read. */
#define ARCHIVE_BYTES_MAX (64u << 20)

struct run_archive {
	int probe_version;
	char date[11];
	char kernel[ARCHIVE_TEXT_MAX + 1], microcode[ARCHIVE_TEXT_MAX + 1], platform[ARCHIVE_TEXT_MAX + 1];
	char hypervisor[ARCHIVE_TEXT_MAX + 1]; /* "none" on bare metal */
	struct cpuid_dump cpuid;
	char flavor[32];
	int samples;
	struct measurement m; /* passes, overhead and every point */
	struct dispatch_run dispatch; /* version 3; measured 0 before it */
	char sha256[65];      /* of the text, as written or as read */
	char *text;           /* archive_load: the file's bytes, kept for the evidence */
	size_t text_len;
};

/* The archive's text, its checksum line last (malloc'd); sets a->sha256. */
char *archive_text(struct run_archive *a);

/* Parses and checks text. Nonzero with why set ("line 12: ..."), and
 * nothing to free, when it is not a whole, unchanged archive of a known
 * probe version whose every field is well formed. */
int archive_parse(const char *text, size_t len, struct run_archive *a, char *why, size_t why_size);

/* 0 when text ends with a checksum line that matches every byte before it:
 * sets hex, and *body (may be NULL) to that line's offset. 1 when there is
 * no checksum line (a cut-short file), 2 when it does not match. */
int archive_checksum(const char *text, size_t len, char hex[65], size_t *body);

/* archive_parse of a file no larger than ARCHIVE_BYTES_MAX. */
int archive_load(const char *path, struct run_archive *a, char *why, size_t why_size);

void archive_free(struct run_archive *a);

#endif
