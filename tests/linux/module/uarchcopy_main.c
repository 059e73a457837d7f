// SPDX-License-Identifier: GPL-2.0
/*
 * The test module: installs the rule this CPU's CPUID selects and logs it.
 * It calls the routines through uc_rule_routine() (copy_rule.h) instead of
 * patching their entries: text_poke_early is not exported to modules.
 */
#include <linux/module.h>
#include <linux/printk.h>
#include "copy_rule.h"

static int __init uarchcopy_test_init(void)
{
	char line[256];

	uc_rule_describe(line, sizeof(line), uc_rule_init());
	pr_info("uarchcopy: %s, routines %s\n", line, uc_rule_routines());
	return 0;
}

static void __exit uarchcopy_test_exit(void)
{
}

module_init(uarchcopy_test_init);
module_exit(uarchcopy_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("uarchcopy's routines under Linux");
