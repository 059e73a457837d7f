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
#endif

#endif
