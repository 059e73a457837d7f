/* What one probe run found, and the entry it goes to: the database and the
 * evidence folder record the same facts, so both read them from here. */
#ifndef UARCHGEN_RUN_FACTS_H
#define UARCHGEN_RUN_FACTS_H

#include "../../derive/archive.h"
#include "../../derive/cpuid.h"
#include "../../derive/derive.h"
#include "../../derive/search.h"
#include "../../derive/timings.h"

struct entry_choice {
	char name[32];
	int is_new; /* no entry's CPUID range holds this CPU: one is created */
};

struct run_facts {
	const struct run_archive *archive; /* as the probe wrote it: raw timings and the machine */
	const struct cpu_info *cpu;        /* decoded from the archive's CPUID leaves */
	const struct timings *table;         /* the minimum over every pass */
	/* The archive's dispatch timings as the derivation uses them: not
	 * measured below DISPATCH_TRUSTED_VERSION (derive/dispatch.h). */
	struct dispatch_run dispatch;
	const struct derived_rule *rule;
	int moves; /* the run's flavor has a memmove (the drop-in library's) */
	struct derived_rule pass_rule[MAX_PASSES]; /* derived from passes 1..k+1 */
	/* Where the run searched: the tables search_rank ranked, ranked[0..
	 * n_ranked), for the rule and the evidence alike; n_ranked 0 where
	 * the ranking failed (the rule's derivation says why). */
	struct search_entry ranked[SEARCH_TABLES];
	int n_ranked;
	/* The branch-light copies of the run's flat check (search_flat), a
	 * bit a pair; 0 where it has none. */
	unsigned int flat_pairs;
	double median_spread, worst_spread;
};

#endif
