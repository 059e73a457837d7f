/* What a band of the table costs a call under a mixed stream of sizes. */
#ifndef PROBE_DISPATCH_COST_H
#define PROBE_DISPATCH_COST_H

#include "../derive/dispatch.h"
#include "flavor.h"

/* Times the random-size workload and its sorted control through tables of
 * dispatch_bands bands that alternate their copy, compiled with one body
 * for every strategy: d->tables. */
void measure_dispatch(const struct probe_flavor *f, struct dispatch_run *d);

#endif
