/* Patching this process's own code, as a kernel's text poke does, for the
 * programs that run the generated routines in user space (the tests, the
 * probe, the bench): copy_rule.h's rule_patch writes a jmp at each
 * routine's entry through it. */
#ifndef UARCHGEN_TEXT_POKE_H
#define UARCHGEN_TEXT_POKE_H

#include <stddef.h>

/* Writes len bytes over code at addr: the pages are made writable for the
 * write and executable again after it. Exits with a message naming the
 * error where mprotect refuses (a system that forbids writable code). */
void text_poke_user(void *addr, const void *bytes, size_t len);

#ifdef UC_N_PATCH_SITES
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* For a program that included a flavor's copy_rule.h first: rule_install,
 * then rule_patch through text_poke_user, so that the entries run rule
 * from the next call on. Exits where the patch is refused. */
static inline void rule_install_patched(const struct uc_rule *rule)
{
	uc_rule_install(rule);
	if (uc_rule_patch(text_poke_user) != 0) {
		fputs("uc_rule_patch: the patch list is not what copy_rule.c expects or a jump does not reach\n", stderr);
		exit(2);
	}
}

/* For a program that visits each routine set the flavor compiles, once:
 * installs and patches, from row *row of the CPUID table on, the next
 * measured rule whose routines (uc_rule_routines) are a compiled set not
 * yet in seen[0..*n_seen), adds that set to seen and returns the rule;
 * NULL past the last row or when seen (64) is full. */
static inline const struct uc_rule *install_next_set(unsigned int *row, const char *seen[64], int *n_seen)
{
	const struct uc_rule *r;
	for (; *n_seen < 64 && (r = uc_rule_at(*row)) != 0; ++*row) {
		const char *set;
		int k = 0;
		if (r->status != UC_RULE_MEASURED)
			continue;
		rule_install_patched(r);
		set = uc_rule_routines();
		while (k < *n_seen && strcmp(seen[k], set) != 0)
			k++;
		if (k < *n_seen || !strcmp(set, "baseline") || !strcmp(set, "table"))
			continue;
		seen[(*n_seen)++] = set;
		++*row;
		return r;
	}
	return 0;
}
#endif

#endif
