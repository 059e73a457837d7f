/* The run archive written: every line of it in archive.h's order, then
 * its checksum. */
#include "archive.h"
#include "grid_gate.h"
#include "search.h"
#include "trials.h"
#include "repair.h"

#include "../common/sha256.h"
#include "../common/util.h"

char *archive_text(struct run_archive *a)
{
	struct buf b = {0};
	buf_printf(&b, ARCHIVE_MAGIC " %d\nprobe %d\ndate %s\nkernel %s\nmicrocode %s\nplatform %s\nhypervisor %s\n",
		   ARCHIVE_FORMAT, a->probe_version, a->date, a->kernel, a->microcode, a->platform, a->hypervisor);
	for (size_t i = 0; i < a->cpuid.n; i++) {
		const struct cpuid_leaf *l = &a->cpuid.leaves[i];
		buf_printf(&b, "cpuid %08x %08x %08x %08x %08x %08x\n", l->leaf, l->subleaf, l->eax, l->ebx, l->ecx,
			   l->edx);
	}
	buf_printf(&b, "flavor %s\nsamples %d\npasses %d\noverhead %.2f\npoints %zu\n", a->flavor, a->samples,
		   a->m.passes, a->m.overhead, a->m.n);
	for (size_t i = 0; i < a->m.n; i++) {
		const struct point *p = &a->m.points[i];
		buf_printf(&b, "%s %u %u %u", strategy_name[p->strategy], p->length, p->distance, p->misalign);
		for (int k = 0; k < a->m.passes; k++)
			buf_printf(&b, " %.2f", p->pass_min[k]);
		buf_adds(&b, "\n");
	}
	int trials = a->probe_version < SEARCH_VERSION;
	if (a->probe_version >= 3)
		dispatch_text(&b, &a->dispatch, trials);
	if (!trials)
		search_text(&b, &a->dispatch);
	if (trials && a->probe_version >= BAND_TRIALS_VERSION)
		band_trials_text(&b, &a->dispatch);
	if (trials && a->probe_version >= SMALL_TRIAL_VERSION)
		small_trial_text(&b, &a->dispatch);
	if (trials && a->probe_version >= SHAPED_TRIAL_VERSION)
		shaped_trial_text(&b, &a->dispatch);
	if (trials && a->probe_version >= CLASSES_TRIAL_VERSION)
		classes_trial_text(&b, &a->dispatch);
	if (a->probe_version >= GRID_GATE_VERSION)
		grid_gate_text(&b, &a->dispatch);
	if (a->probe_version >= REPAIRS_VERSION)
		repairs_text(&b, &a->dispatch);
	if (a->probe_version >= OVERLAP_VERSION)
		overlap_text(&b, &a->overlap);
	sha256_hex(b.data, b.len, a->sha256);
	buf_printf(&b, "sha256 %s\n", a->sha256);
	return b.data;
}
