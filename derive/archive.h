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
 *   search N ...                     version 26: the search's checks (search.h),
 *                                    where the candidates' lines and the four
 *                                    trials' lines were before it; from
 *                                    version 29 their ranks count the table
 *                                    fitted to the size profile
 *   trials N ...                     version 7: the band trials (dispatch.h)
 *   small_trial ...                  version 8: the small trial (dispatch.h)
 *   shaped ...                       version 9: the shaped trial (dispatch.h)
 *   classes ...                      version 15: the classes trial (dispatch.h)
 *   grid_gate ...                    version 12: the grid gate (dispatch.h)
 *   repairs N ...                    version 21: the gate's repairs (repair.h)
 *   overlaps N PASSES ...            version 27: memmove's copies timed where
 *                                    the ranges overlap (overlap.h)
 *   sha256 HEX                       of every byte before this line
 *
 * Every line ends in a newline; text fields are one printable line. */
#ifndef DERIVE_ARCHIVE_H
#define DERIVE_ARCHIVE_H

#include "cpuid.h"
#include "dispatch.h"
#include "overlap.h"
#include "points.h"

#define ARCHIVE_FORMAT 1
#define ARCHIVE_MAGIC "uarchcopy-run-archive"
/* The probe version this tree writes: raised when the timing method or
 * the plan changes meaning, so that a run taken one way is never derived
 * as if it had been taken another (docs/notebook/derivation-2026-11.md
 * lists what each version changed). The archive's lines differ by
 * version where the header comment above says so; the other constants
 * name the versions from which the import reads a run otherwise. */
#define PROBE_VERSION 32
/* From version 31 a point the regime check flags decides no cell
 * (derive/regime.h, regime_deciding), in the probe's derivation as in the
 * import's. */
#define ARTIFACTS_EXCLUDED_VERSION 31
#define GATE_BANDS_VERSION 30
#define PROFILE_FIT_VERSION 29
#define POOLED_GATE_VERSION 28
#define OVERLAP_VERSION 27
#define SEARCH_VERSION 26
#define GATE_BRANCHES_VERSION 26
#define TREE_BOUND_VERSION 23
#define GATE_CPUS_VERSION 25
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
	struct overlap_timings overlap; /* version 27; none before it, or in a flavor without memmove */
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
