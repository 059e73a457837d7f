/* What the probe records about the machine it measures, besides timings:
 * the raw CPUID leaves, and what the kernel says where it is readable. */
#ifndef PROBE_MACHINE_H
#define PROBE_MACHINE_H

#include "../derive/archive.h"

/* Fills the archive's cpuid, kernel, microcode, platform and hypervisor
 * fields ("unknown" where a file is unreadable, "none" on bare metal). */
void machine_read(struct run_archive *a);

#endif
