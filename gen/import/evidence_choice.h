/* The table's choice at every measured point: choice.csv, and plot.gp,
 * which draws it. The summary reads the same times (evidence_summary.c). */
#ifndef UARCHGEN_EVIDENCE_CHOICE_H
#define UARCHGEN_EVIDENCE_CHOICE_H

#include "run_facts.h"

/* The ticks of strategy s at (n, d), or -1 where the run did not time it. */
double evidence_ticks_at(const struct timings *t, int s, unsigned int n, unsigned int d);

/* Writes choice.csv to path: a line per measured point. Nonzero on an I/O
 * error, errno set. */
int evidence_write_choices(const char *path, const struct run_facts *run);

/* The text of plot.gp (malloc'd), which draws choice.csv. */
char *evidence_plot_body(const struct entry_choice *entry, const struct run_facts *run);

#endif
