/* The probe's own entries and its trees' jumps to pieces, checked on this
 * CPU for each flavor (probe_trials_entries.c), and the check that
 * probe_trials.c counts. */
#ifndef TESTS_PROBE_TRIALS_H
#define TESTS_PROBE_TRIALS_H

#include "../probe/flavor.h"

/* Counts a check of flavor; prints what failed. */
void check(int ok, const char *flavor, const char *what);

/* Each strategy the CPU runs, through its own entry (compile_strategies). */
void check_own_entries(const struct probe_flavor *f);

/* A table whose tree enters avx512_medium at its pieces, compiled, and
 * each piece's own entry. */
void check_pieces(const struct probe_flavor *f);

#endif
