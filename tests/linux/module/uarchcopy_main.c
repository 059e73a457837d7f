// SPDX-License-Identifier: GPL-2.0
/*
 * The test module: installs the rule this CPU's CPUID selects, logs it,
 * and serves /dev/uarchcopy (uarchcopy_dev.h), through which the test
 * program (uctest.c) drives the routines against its own user buffers.
 * The routines are called through uc_rule_routine() (copy_rule.h), not
 * patched into their entries: text_poke_early is not exported to modules,
 * and is for boot time alone (README.md, "Vendoring into Linux").
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include "copy_rule.h"
#include "uarchcopy_dev.h"

typedef void *(*copy_fn)(void *, const void *, size_t);
typedef int (*strategy_fn)(const void *, const void *, size_t);
typedef size_t (*user_fn)(void *, const void *, size_t);

static u8 *kbuf;

/* memcpy's sweep: lengths 0..300 and some long ones, at distances that
 * reach every class, against a byte loop on a sentinel background. */
#define SWEEP_SIZE (64 * 1024)
static void sweep(struct uarchcopy_req *r)
{
	static const size_t lens[] = { 511, 512, 1000, 4095, 4096, 4097, 8192 + 13, 20000 };
	static const size_t dists[] = { 0, 1, 8, 16, 31, 32, 33, 64, 100, 2048, 4064, 4095 };
	copy_fn copy = (copy_fn)uc_rule_routine(UC_SITE_MEMCPY);
	u8 *m = vmalloc(SWEEP_SIZE);
	size_t i, d, k, n;

	r->n = r->result = 0;
	if (!m) {
		r->result = 1;
		return;
	}
	for (d = 0; d < ARRAY_SIZE(dists); d++) {
		for (i = 0; i < 300 + ARRAY_SIZE(lens); i++) {
			u8 *src = m + 64, *dst;

			n = i < 300 ? i : lens[i - 300];
			dst = src + 24576 + dists[d];
			for (k = 0; k < SWEEP_SIZE; k++)
				m[k] = (u8)(k * 7 + 1);
			if (copy(dst, src, n) != dst)
				r->result++;
			for (k = 0; k < SWEEP_SIZE; k++) {
				u8 want = (u8)(k * 7 + 1);

				if (m + k >= dst && m + k < dst + n)
					want = src[m + k - dst];
				if (m[k] != want) {
					r->result++;
					break;
				}
			}
			r->n++;
		}
	}
	vfree(m);
}

static long user_copy(unsigned int cmd, struct uarchcopy_req *r)
{
	void __user *u = (void __user *)(uintptr_t)r->user;
	u8 *k = kbuf + r->koff;
	size_t i;

	if (r->koff > UARCHCOPY_KBUF || r->n > UARCHCOPY_KBUF - r->koff || !access_ok(u, r->n))
		return -EINVAL;
	for (i = 0; i < UARCHCOPY_KBUF; i++)
		kbuf[i] = uarchcopy_kernel_byte(i);
	r->bad_prefix = 0;
	if (cmd == UARCHCOPY_TO_USER) {
		r->strategy = ((strategy_fn)uc_rule_routine(UC_SITE_COPY_STRATEGY))((void __force *)u, k, r->n);
		r->result = ((user_fn)uc_rule_routine(UC_SITE_COPY_TO_USER))((void __force *)u, k, r->n);
	} else if (cmd == UARCHCOPY_FROM_USER) {
		r->strategy = ((strategy_fn)uc_rule_routine(UC_SITE_COPY_STRATEGY))(k, (void __force *)u, r->n);
		r->result = ((user_fn)uc_rule_routine(UC_SITE_COPY_FROM_USER))(k, (void __force *)u, r->n);
		/* What was copied is the user's bytes; the rest is untouched
		 * where the copy went forward. */
		for (i = 0; i < r->n && i < r->n - r->result; i++)
			if (k[i] != uarchcopy_user_byte(r->user + i))
				r->bad_prefix = 1;
	} else {
		r->strategy = UC_STRATEGY_FORWARD;
		r->result = uc_clear_user((void __force *)u, r->n);
	}
	return 0;
}

static long uarchcopy_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct uarchcopy_req r;
	long rc = 0;

	if (copy_from_user(&r, (void __user *)arg, sizeof(r)))
		return -EFAULT;
	switch (cmd) {
	case UARCHCOPY_SWEEP:
		sweep(&r);
		break;
	case UARCHCOPY_TO_USER:
	case UARCHCOPY_FROM_USER:
	case UARCHCOPY_CLEAR:
		rc = user_copy(cmd, &r);
		break;
	default:
		return -ENOTTY;
	}
	if (!rc && copy_to_user((void __user *)arg, &r, sizeof(r)))
		rc = -EFAULT;
	return rc;
}

static const struct file_operations uarchcopy_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = uarchcopy_ioctl,
};

static struct miscdevice uarchcopy_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "uarchcopy",
	.fops = &uarchcopy_fops,
};

static int __init uarchcopy_test_init(void)
{
	char line[256];

	kbuf = vmalloc(UARCHCOPY_KBUF);
	if (!kbuf)
		return -ENOMEM;
	uc_rule_describe(line, sizeof(line), uc_rule_init());
	pr_info("uarchcopy: %s, routines %s\n", line, uc_rule_routines());
	return misc_register(&uarchcopy_dev);
}

static void __exit uarchcopy_test_exit(void)
{
	misc_deregister(&uarchcopy_dev);
	vfree(kbuf);
}

module_init(uarchcopy_test_init);
module_exit(uarchcopy_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("uarchcopy's routines under Linux");
