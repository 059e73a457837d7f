#include "cpuid.h"

#include "../common/text.h"

#include <stdio.h>
#include <string.h>

static void add_leaf(struct cpuid_dump *d, cpuid_fn cpuid, uint32_t leaf, uint32_t subleaf)
{
	uint32_t r[4];
	/* cpuid_read_all reads at most 70 leaves (cpuid.h). */
	_Static_assert(MAX_CPUID_LEAVES >= 0x20 + 2 + 0x22 + 2, "the dump holds every leaf the reader reads");
	cpuid(leaf, subleaf, r);
	d->leaves[d->n++] = (struct cpuid_leaf){leaf, subleaf, r[0], r[1], r[2], r[3]};
}

void cpuid_read_all(struct cpuid_dump *d, cpuid_fn cpuid)
{
	uint32_t r[4];
	memset(d, 0, sizeof *d);
	cpuid(0, 0, r);
	uint32_t max = r[0] < 0x1f ? r[0] : 0x1f;
	for (uint32_t leaf = 0; leaf <= max; leaf++) {
		add_leaf(d, cpuid, leaf, 0);
		if (leaf == 7 || leaf == 0xd)
			add_leaf(d, cpuid, leaf, 1);
	}
	cpuid(0x80000000u, 0, r);
	if (r[0] >= 0x80000000u && r[0] < 0x80000100u) {
		uint32_t ext = r[0] < 0x80000021u ? r[0] : 0x80000021u;
		for (uint32_t leaf = 0x80000000u; leaf <= ext; leaf++)
			add_leaf(d, cpuid, leaf, 0);
	}
	const struct cpuid_leaf *one = cpuid_find(d, 1, 0);
	if (one && (one->ecx >> 31) & 1) {
		add_leaf(d, cpuid, 0x40000000u, 0);
		add_leaf(d, cpuid, 0x40000001u, 0);
	}
}

const struct cpuid_leaf *cpuid_find(const struct cpuid_dump *d, uint32_t leaf, uint32_t subleaf)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->leaves[i].leaf == leaf && d->leaves[i].subleaf == subleaf)
			return &d->leaves[i];
	return NULL;
}

static void words(char *out, uint32_t a, uint32_t b, uint32_t c)
{
	memcpy(out, &a, 4);
	memcpy(out + 4, &b, 4);
	memcpy(out + 8, &c, 4);
	out[12] = '\0';
}

/* The database's ranges are in the display family and model the generated
 * lookup computes (uc_cpuid_family_model, as Linux's x86_family and
 * x86_model in arch/x86/lib/cpu.c do): the extended family adds to a base
 * family of 0xf, and the extended model is the high nibble from display
 * family 6 up. Intel SDM vol. 2A (CPUID, "Processor Version Information")
 * takes the extended model for base families 6 and 0xf only; the two differ
 * for base families 7..0xe, which no CPU has reported. An import must place
 * a CPU where the lookup will look for it, so it decodes as the lookup does. */
void cpu_family_model(uint32_t signature, unsigned int *family, unsigned int *model)
{
	*family = (signature >> 8) & 0xf;
	if (*family == 0xf)
		*family += (signature >> 20) & 0xff;
	*model = (signature >> 4) & 0xf;
	if (*family >= 0x6)
		*model += ((signature >> 16) & 0xf) << 4;
}

void cpu_decode(const struct cpuid_dump *d, struct cpu_info *c)
{
	memset(c, 0, sizeof *c);
	const struct cpuid_leaf *l = cpuid_find(d, 0, 0);
	uint32_t max_leaf = l ? l->eax : 0;
	if (l)
		words(c->vendor, l->ebx, l->edx, l->ecx);
	for (int i = 0; i < 12; i++) /* a vendor is 12 printable characters, or it is no vendor */
		if (c->vendor[i] < 32 || c->vendor[i] > 126)
			c->vendor[i] = '?';
	if (max_leaf >= 1 && (l = cpuid_find(d, 1, 0))) {
		c->signature = l->eax;
		c->guest = (l->ecx >> 31) & 1;
	}
	cpu_family_model(c->signature, &c->family, &c->model);
	c->stepping = c->signature & 0xf;
	if (max_leaf >= 7 && (l = cpuid_find(d, 7, 0))) {
		c->erms = (l->ebx >> 9) & 1; /* Enhanced REP MOVSB/STOSB */
		c->avx2 = (l->ebx >> 5) & 1;
		c->avx512f = (l->ebx >> 16) & 1;
		c->fsrm = (l->edx >> 4) & 1; /* Fast Short REP MOV */
	}
	l = cpuid_find(d, 0x80000000u, 0);
	if (l && l->eax >= 0x80000004u) {
		uint32_t b[12] = {0};
		for (uint32_t i = 0; i < 3; i++) {
			const struct cpuid_leaf *part = cpuid_find(d, 0x80000002u + i, 0);
			if (part) {
				b[4 * i] = part->eax;
				b[4 * i + 1] = part->ebx;
				b[4 * i + 2] = part->ecx;
				b[4 * i + 3] = part->edx;
			}
		}
		memcpy(c->brand, b, 48);
		c->brand[48] = '\0';
		char *s = c->brand;
		while (*s == ' ')
			s++;
		memmove(c->brand, s, strlen(s) + 1);
		for (size_t n = strlen(c->brand); n > 0 && c->brand[n - 1] == ' '; n--)
			c->brand[n - 1] = '\0';
		/* The brand string is whatever the CPU, or a hypervisor, says: it
		 * reaches the database, and from there generated code, only as one
		 * printable line. */
		text_sanitize(c->brand);
	}
	if (c->guest) {
		l = cpuid_find(d, 0x40000000u, 0);
		if (l)
			words(c->hypervisor, l->ebx, l->ecx, l->edx);
		for (int i = 0; i < 12; i++)
			if (c->hypervisor[i] == '\0' || c->hypervisor[i] < 32 || c->hypervisor[i] > 126)
				c->hypervisor[i] = i ? '\0' : '?';
		text_sanitize(c->hypervisor);
		if (!c->hypervisor[0])
			strcpy(c->hypervisor, "unknown");
	}
}

void cpu_signature_text(const struct cpu_info *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s family 0x%02x model 0x%02x stepping %u", c->vendor, c->family, c->model,
		 c->stepping);
}
