/* The CPUs the probe may run on. It times on one at a time, pinned, since
 * a migration mid-sample would time two cores; the grid gate judges a
 * table on each (grid_gate.c), since a program may run on any, and the
 * CPUs of one machine, a guest's above all, need not time alike: a copy
 * can tie the C library's memmove on one and lose to it on another
 * (measured: see
 * docs/notebook/comment-figures-2026-12.md#the-cpus-of-one-guest). */
#ifndef PROBE_CPUS_H
#define PROBE_CPUS_H

#include "../derive/dispatch.h"

/* The most CPUs the grid gate times on: the home CPU and others spread
 * over the rest. */
#define CPUS_TIMED_MAX GRID_GATE_CPUS

/* Records the CPUs this process may run on, then pins it to the one it
 * runs on now, its home. */
void cpus_settle(void);

/* The CPUs to time on, home first, into out (room for CPUS_TIMED_MAX);
 * how many. One, the home CPU, before cpus_settle. */
int cpus_timed(int *out);

/* Pins this process to cpu; 0, or -1 where it may not run there. */
int cpus_pin(int cpu);

/* The CPU cpus_settle pinned to. */
int cpus_home(void);

#endif
