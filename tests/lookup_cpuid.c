/* Prints the entry the generated rule table picks for recorded CPUID words:
 * lookup_cpuid VENDOR LEAF1_EAX -> the entry name, or "-" when none matched. */
#include "copy_rule.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 3 || strlen(argv[1]) != 12) {
		fprintf(stderr, "usage: lookup_cpuid VENDOR(12 characters) LEAF1_EAX\n");
		return 2;
	}
	struct uc_cpuid id;
	memcpy(id.vendor, argv[1], 12); /* leaf 0 returns the string as ebx, edx, ecx, little-endian */
	id.signature = (uint32_t)strtoul(argv[2], NULL, 0);
	const struct uc_rule *rule = uc_rule_from_cpuid(&id);
	printf("%s\n", rule->entry[0] ? rule->entry : "-");
	return 0;
}
