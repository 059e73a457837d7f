/* Who the probe is measuring: CPUID's answer, and whether it is a guest. */
#ifndef PROBE_CPU_H
#define PROBE_CPU_H

#include <stddef.h>
#include <stdint.h>

struct cpu_info {
	char vendor[13];
	uint32_t signature; /* leaf 1 EAX */
	unsigned int family, model, stepping;
	char brand[49];
	int erms, fsrm, avx2, avx512f;
	int guest;             /* leaf 1 ECX bit 31: a hypervisor is present */
	char hypervisor[13];   /* leaf 0x40000000 vendor, "" when none */
};

void cpu_identify(struct cpu_info *c);

/* "GenuineIntel family 0x06 model 0xa7 stepping 1" */
void cpu_signature_text(const struct cpu_info *c, char *buf, size_t size);

#endif
