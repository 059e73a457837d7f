/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test module's device, /dev/uarchcopy, shared by the module and the
 * test program (uctest.c): one request per ioctl.
 */
#ifndef UARCHCOPY_DEV_H
#define UARCHCOPY_DEV_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* A user copy: user address and length; koff, the kernel side's offset in
 * the module's buffer; back, the routine's result (bytes not copied) and
 * the strategy code its dispatch takes; for SWEEP, cases and failures. */
struct uarchcopy_req {
	__u64 user, n, koff;
	__u64 result;
	__s32 strategy, bad_prefix;
};

#define UARCHCOPY_SWEEP     _IOWR('u', 1, struct uarchcopy_req)
#define UARCHCOPY_TO_USER   _IOWR('u', 2, struct uarchcopy_req)
#define UARCHCOPY_FROM_USER _IOWR('u', 3, struct uarchcopy_req)
#define UARCHCOPY_CLEAR     _IOWR('u', 4, struct uarchcopy_req)

/* The module's buffer holds byte j = kernel_byte(j); a user buffer holds
 * user_byte(address): each side can tell what the other should have. */
#define UARCHCOPY_KBUF (3 * 4096)
static inline __u8 uarchcopy_kernel_byte(__u64 j) { return (__u8)(j * 13 + 5); }
static inline __u8 uarchcopy_user_byte(__u64 a) { return (__u8)((a >> 3) ^ (a * 7) ^ 0x5a); }

#endif
