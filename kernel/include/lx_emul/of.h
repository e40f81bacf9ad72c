/* SPDX-License-Identifier: MIT */
/* linux/of*.h subset: the device-tree lookups the drivers make. struct device_node lives in
 * lx_emul/device.h (filled by the testbench per device). */
#ifndef LX_EMUL_OF_H
#define LX_EMUL_OF_H

#include <linux/types.h>
#include <linux/device.h>
#include <linux/interrupt.h> /* of_irq.h users expect irq_dispose_mapping */


/* of_irq_get(): the node's first interrupt, or -EINVAL-like "none" (0) when absent. */
static inline int of_irq_get(struct device_node* np, int index)
{
    return (np && index == 0 && np->irq > 0) ? np->irq : 0;
}

/* of_get_ethdev_address(): "local-mac-address" of the device's node, else -ENODEV. */
struct net_device;
int of_get_ethdev_address(struct device_node* np, struct net_device* dev);

static inline bool of_property_read_bool(const struct device_node* np, const char* propname)
{
    return false;
}

#endif
