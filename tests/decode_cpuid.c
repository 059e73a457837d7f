/* The import (derive/cpuid.c) and the generated lookup (uc_cpuid_family_model)
 * must read the same family and model from a CPUID signature: an import
 * files a CPU under the family and model it decodes, and the lookup looks
 * for it under its own. Compares the two on every value of the fields they
 * read (bits 4..27 of leaf 1 EAX); prints the first disagreement. */
#include "copy_rule.h"
#include "../derive/cpuid.h"

#include <stdio.h>

int main(void)
{
	unsigned long checked = 0;
	for (uc_u32 fields = 0; fields < (1u << 24); fields++) {
		uc_u32 signature = fields << 4;
		unsigned int gf, gm, rf, rm;
		uc_cpuid_family_model(signature, &gf, &gm);
		cpu_family_model(signature, &rf, &rm);
		if (gf != rf || gm != rm) {
			printf("FAIL signature 0x%08x: the lookup reads family 0x%x model 0x%x, the import family 0x%x "
			       "model 0x%x\n",
			       (unsigned int)signature, gf, gm, rf, rm);
			return 1;
		}
		checked++;
	}
	printf("ok %lu signatures decode alike\n", checked);
	return 0;
}
