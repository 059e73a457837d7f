/* The search's checks (derive/search.h), timed: the tables the model
 * ranks, each compiled as gen writes it and timed against the baseline as
 * it ships; then the grid gate on the one kept. */
#ifndef PROBE_CHECKS_H
#define PROBE_CHECKS_H

#include "../derive/dispatch.h"
#include "flavor.h"

/* Ranks t's tables (search_rank), prints them with the model's figures,
 * checks each (search_keep), and the kept one's branch-light table
 * (search_flat), recording each check in d; then,
 * where one was kept, the grid gate (try_grid_gate) up to longest bytes.
 * Nonzero, after saying why, where a derivation fails. */
int search_and_check(const struct probe_flavor *f, const struct timings *t, struct dispatch_run *d, double noise,
		     double placement_sd,
		     size_t longest);

#endif
