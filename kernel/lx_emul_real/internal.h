/* SPDX-License-Identifier: MIT */
/* lx_emul_real internals: the kernel-API emulation compiled against a tree's real headers
 * (docs/driver-build.md, "Real kernel headers"). Its files see the kernel's own struct layouts
 * and keep lx_kit's state for an object beside it (side.c) where the real struct has no field
 * for it; behaviour that needs no kernel layout is lx_emul's, called through lx_emul/shared.h
 * or by the names both header sets declare alike (ktime_get, msleep, msecs_to_jiffies). */
#ifndef LX_EMUL_REAL_INTERNAL_H
#define LX_EMUL_REAL_INTERNAL_H

#include <linux/types.h>
#include <lx_kit/lx_kit.h>

/* The host C library's allocator, for emulation-owned objects (task_structs, side state): they
 * are not driver allocations and never reach kfree. */
void *calloc(unsigned long n, unsigned long size);
void free(void *p);

/* The tree's version (NICSIM_RH_VERSION_CODE, from its Makefile: the build defines it, as the
 * tree has no generated linux/version.h here), for the functions a tree renamed or added. */
#define LX_REAL_KERNEL_AT_LEAST(major, minor) (NICSIM_RH_VERSION_CODE >= (((major) << 16) + ((minor) << 8)))

/* Zeroed state of `size` bytes kept for the kernel object at `key`, created on first use and
 * the same for every later call with that key and size (side.c). */
void *lx_real_side(const void *key, unsigned long size);
/* Forgets the state of `key` (the next lx_real_side gives zeroed state again). */
void lx_real_side_reset(const void *key, unsigned long size);

/* Forgets the testbench's hooks on a net device (netif.c): a new device at its address. */
struct net_device;
void lx_real_netdev_forget(const struct net_device *dev);
/* The registered net device whose parent is `parent` (SET_NETDEV_DEV), NULL if none. */
struct device;
struct net_device *lx_real_netdev_of_parent(const struct device *parent);

/* The frame the device's driver refused (NETDEV_TX_BUSY) and the qdisc holds to offer again
 * (netif.c keeps it with the device's hooks; xmit.c manages it). */
struct sk_buff;
struct sk_buff **lx_real_netdev_requeued(const struct net_device *dev);
/* Frees that frame, without telling its owner (the qdisc's reset at ifdown or unregister). */
void lx_real_netdev_drop_requeued(const struct net_device *dev);

/* Who the testbench's stack tells when an skb it transmitted is freed (TCP Small Queues'
 * accounting, as the kernel's skb->destructor tcp_wfree does), kept with the skb (skbuff.c). */
struct lx_real_skb_owner {
    void (*free)(void *ctx, u64 cookie);
    void *ctx;
    u64 cookie;
};
struct lx_real_skb_owner *lx_real_skb_owner_of(struct sk_buff *skb);

/* The real task_struct of an lx_kit task, created on first use. */
struct task_struct *lx_real_task(struct lx_kit_task *kit);

/* Aborts the run when the calling task may not sleep: lx_kit's atomic depth (lx_emul) or the
 * real preempt count's IRQ, softirq and BH-disabled bits (the real headers' local_bh_disable
 * and irq entry count there). */
void lx_real_might_sleep(const char *what);

#endif
