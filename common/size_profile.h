/* How often memcpy copies each size: the sizes of calls under 256 bytes in
 * SPEC CPU2006, with their frequencies per 1024 calls, the data of glibc's
 * benchtests/bench-memcpy-random.c. The random-size workload draws from it
 * (workload.c), and the branch trees order their compares by it
 * (plan/tree.c). */
#ifndef COMMON_SIZE_PROFILE_H
#define COMMON_SIZE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

struct size_freq {
	uint16_t value, freq;
};

extern const struct size_freq size_profile[];
extern const size_t n_size_profile;

/* The calls per 1024 whose size is lo..hi. */
unsigned int size_profile_weight(unsigned int lo, unsigned int hi);

#endif
