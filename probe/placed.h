/* Compiled tables timed on the workload, each at several places: how the
 * probe times every table it compares (the dispatch's, the candidates, the
 * trials', its prediction of out/'s). */
#ifndef PROBE_PLACED_H
#define PROBE_PLACED_H

#include "../derive/archive.h"
#include "flavor.h"
#include "streams.h"

/* The places each table is compiled at. Of identical tables compiled to
 * adjacent slots and timed one after another, at most one, a different one
 * from one process to the next, ran faster than the rest; the median of
 * three places outvotes such a lucky one (measured: see
 * docs/notebook/comment-figures-2026-12.md#a-lucky-place). */
enum { PLACES = PLACES_TIMED };

/* tables[0..n) compiled (compile_tables, one_body as there), each at
 * PLACES places, and extra[0..n_extra) as they are, every copy timed in
 * turns with the forward routine, one after another (time_against), extra
 * j after the tables' place j mod PLACES:
 * out[i] the median over table i's places, out[n + j] extra j's time.
 * An aligning strategy's routine aligns as the table installed last says
 * (the caller's force_strategy or install). Nonzero after saying why. */
int time_placed(const struct probe_flavor *f, struct streams *s, const struct derived_rule *tables, int n,
		int one_body, const copy_fn *extra, int n_extra, struct workload_ticks *out);

/* The order time_placed times its copies in: order[0..n * PLACES +
 * n_extra) holds indexes into place k of table i at k * n + i, then extra j
 * at n * PLACES + j; place k of every table, then the extras j with j mod
 * PLACES = k, for k = 0, 1, 2. */
void placed_order(int n, int n_extra, int *order);

/* The middle one of three. */
double median3(double a, double b, double c);

#endif
