// SPDX-License-Identifier: GPL-2.0-only
/*
 * Deliberately misbehaving module for testing the tempo test VM
 * (tools/vm/selftest/run): it provokes the kernel reports the VM must
 * catch.  Never load it outside a throw-away VM.
 *
 *   action=none  load quietly
 *   action=warn  WARN() while loading
 *   action=oops  dereference NULL while loading
 */
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

static char *action = "none";
module_param(action, charp, 0444);
MODULE_PARM_DESC(action, "What to provoke while loading: none, warn or oops");

static int __init tempo_vm_selftest_init(void)
{
	if (!strcmp(action, "warn")) {
		WARN(1, "tempo_vm_selftest: deliberate warning\n");
	} else if (!strcmp(action, "oops")) {
		int *target = NULL;

		/* Keep the compiler from reasoning about the NULL store. */
		OPTIMIZER_HIDE_VAR(target);
		pr_info("tempo_vm_selftest: deliberate NULL dereference\n");
		WRITE_ONCE(*target, 1);
	} else if (strcmp(action, "none")) {
		pr_err("tempo_vm_selftest: unknown action '%s'\n", action);
		return -EINVAL;
	}
	return 0;
}

static void __exit tempo_vm_selftest_exit(void)
{
}

module_init(tempo_vm_selftest_init);
module_exit(tempo_vm_selftest_exit);
MODULE_DESCRIPTION("Provokes kernel reports to test the tempo test VM");
MODULE_LICENSE("GPL");
