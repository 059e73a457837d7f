/* A CPU as its CPUID leaves describe it. The probe reads the leaves on the
 * machine it measures and writes them raw into its run archive; the import
 * decodes them here, so that what a CPU is never depends on the machine
 * that imports its run. */
#ifndef DERIVE_CPUID_H
#define DERIVE_CPUID_H

#include <stddef.h>
#include <stdint.h>

/* The most leaves the reader below records: 0x20 basic leaves and two
 * subleaves, 0x22 extended leaves and two of the hypervisor's, 70, on a
 * CPU that has them all (Sapphire Rapids reports basic leaves to 0x20 and
 * extended ones past 0x80000021). An archive may hold a few more, as a
 * hand-edited or later probe's might; the import refuses more than this. */
#define MAX_CPUID_LEAVES 128

struct cpuid_leaf {
	uint32_t leaf, subleaf;
	uint32_t eax, ebx, ecx, edx;
};

struct cpuid_dump {
	struct cpuid_leaf leaves[MAX_CPUID_LEAVES];
	size_t n;
};

/* The leaves the probe records, in this order: 0..min(max, 0x1f) at subleaf 0,
 * with 7.1 and 0xd.1; 0x80000000..min(max, 0x80000021); and 0x40000000..1
 * when leaf 1 reports a hypervisor. The reader calls cpuid(leaf, subleaf). */
typedef void (*cpuid_fn)(uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);
void cpuid_read_all(struct cpuid_dump *d, cpuid_fn cpuid);

/* The leaf, or NULL when the dump lacks it. */
const struct cpuid_leaf *cpuid_find(const struct cpuid_dump *d, uint32_t leaf, uint32_t subleaf);

struct cpu_info {
	char vendor[13];
	uint32_t signature; /* leaf 1 EAX */
	unsigned int family, model, stepping;
	char brand[49];        /* printable, one line (text_sanitize) */
	int erms, fsrm, avx2, avx512f;
	int guest;             /* leaf 1 ECX bit 31: a hypervisor is present */
	char hypervisor[13];   /* leaf 0x40000000's vendor, printable; "" when none */
};

void cpu_decode(const struct cpuid_dump *d, struct cpu_info *c);

/* The display family and model of a leaf 1 EAX signature, as the generated
 * lookup (uc_cpuid_family_model) computes them. */
void cpu_family_model(uint32_t signature, unsigned int *family, unsigned int *model);

/* "GenuineIntel family 0x06 model 0xa7 stepping 1" */
void cpu_signature_text(const struct cpu_info *c, char *buf, size_t size);

#endif
