// SPDX-License-Identifier: GPL-2.0
/*
 * Installs this CPU's copy rule and points the copy entries at its
 * routines, once, at boot (uarchcopy: arch/x86/lib/uarchcopy/).
 *
 * Until it runs, memcpy, copy_to_user and copy_from_user are the entries'
 * own bytes, the baseline, correct on every CPU: one forward rep movsb, or,
 * where the patch keeps the tree's own choice, rep movsb with FSRM and
 * memcpy_orig or rep_movs_alternative without, which the kernel's
 * alternatives settle before any initcall (docs/linux.md). An early initcall
 * runs on the boot CPU alone, before the others are brought up
 * (do_pre_smp_initcalls in init/main.c), and before mark_readonly() makes
 * the kernel text read-only: the conditions under which the kernel's own
 * alternatives write code with text_poke_early(). uc_rule_patch() copies
 * the chosen routine's branch tree into each entry after its ENDBR, so an
 * indirect call still lands on an ENDBR (CONFIG_X86_KERNEL_IBT); while an
 * entry changes, its first bytes jump to the routine, for text_poke_early()
 * copies with the memcpy being patched.
 */
#include <linux/cache.h>
#include <linux/init.h>
#include <linux/printk.h>
#include <asm/text-patching.h>
#include "copy_rule.h"

static int __init uarchcopy_init(void)
{
	char line[256];
	const struct uc_rule *rule = uc_rule_init();

	uc_rule_describe(line, sizeof(line), rule);
	if (uc_rule_patch(text_poke_early)) {
		pr_err("uarchcopy: the entries cannot be patched; every copy stays the baseline\n");
		return 0;
	}
	pr_info("uarchcopy: routines %s; %s\n", uc_rule_routines(), line);
	return 0;
}
early_initcall(uarchcopy_init);
