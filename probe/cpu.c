#include "cpu.h"

#include "../gen/text.h"

#include "copy_rule.h"

#include <stdio.h>
#include <string.h>

static void words(char *out, uint32_t a, uint32_t b, uint32_t c)
{
	memcpy(out, &a, 4);
	memcpy(out + 4, &b, 4);
	memcpy(out + 8, &c, 4);
	out[12] = '\0';
}

void cpu_identify(struct cpu_info *c)
{
	uint32_t r[4];
	memset(c, 0, sizeof *c);
	uc_cpuid_leaf(0, 0, r);
	uint32_t max_leaf = r[0];
	words(c->vendor, r[1], r[3], r[2]);
	if (max_leaf >= 1) {
		uc_cpuid_leaf(1, 0, r);
		c->signature = r[0];
		c->guest = (r[2] >> 31) & 1;
	}
	uc_cpuid_family_model(c->signature, &c->family, &c->model);
	c->stepping = c->signature & 0xf;
	if (max_leaf >= 7) {
		uc_cpuid_leaf(7, 0, r);
		c->erms = (r[1] >> 9) & 1;     /* Enhanced REP MOVSB/STOSB */
		c->avx2 = (r[1] >> 5) & 1;
		c->avx512f = (r[1] >> 16) & 1;
		c->fsrm = (r[3] >> 4) & 1;     /* Fast Short REP MOV */
	}
	uc_cpuid_leaf(0x80000000u, 0, r);
	if (r[0] >= 0x80000004u) {
		uint32_t b[12];
		for (uint32_t i = 0; i < 3; i++)
			uc_cpuid_leaf(0x80000002u + i, 0, b + 4 * i);
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
		uc_cpuid_leaf(0x40000000u, 0, r);
		words(c->hypervisor, r[1], r[2], r[3]);
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
