// SPDX-License-Identifier: MIT
/* lx_emul_real: a network device's MAC address from its firmware node, the kernel's device_node
 * with its property list (what the simulator builds for a board's device, as the kernel's
 * unflattened device tree has it). The first of "mac-address", "local-mac-address" and
 * "address" that is 6 bytes and a valid unicast address is taken, in the kernel's order
 * (of_get_mac_address; device_get_mac_address through the device's of_node, its only firmware
 * node here); no node or no such property is -ENODEV for the OF call, -ENOENT for the device's.
 * nicsim has no NVMEM cells to fall back to. */
#include <linux/etherdevice.h>
#include <linux/of.h>
#include <linux/of_net.h>
#include <linux/string.h>

#include "internal.h"

static const u8 *mac_of(const struct device_node *np)
{
    static const char *const names[] = {"mac-address", "local-mac-address", "address"};
    for (unsigned int i = 0; np && i < ARRAY_SIZE(names); i++)
        for (const struct property *pp = np->properties; pp; pp = pp->next)
            if (strcmp(pp->name, names[i]) == 0 && pp->length == ETH_ALEN &&
                is_valid_ether_addr(pp->value))
                return pp->value;
    return NULL;
}

int of_get_mac_address(struct device_node *np, u8 *mac)
{
    const u8 *addr = mac_of(np);
    if (!addr)
        return -ENODEV;
    ether_addr_copy(mac, addr);
    return 0;
}

int of_get_ethdev_address(struct device_node *np, struct net_device *dev)
{
    u8 addr[ETH_ALEN];
    int ret = of_get_mac_address(np, addr);
    if (!ret)
        eth_hw_addr_set(dev, addr);
    return ret;
}

int device_get_mac_address(struct device *dev, char *addr)
{
    const u8 *mac = mac_of(dev ? dev->of_node : NULL);
    if (!mac)
        return -ENOENT;
    ether_addr_copy((u8 *)addr, mac);
    return 0;
}

int device_get_ethdev_address(struct device *dev, struct net_device *netdev)
{
    u8 addr[ETH_ALEN];
    int ret = device_get_mac_address(dev, (char *)addr);
    if (!ret)
        eth_hw_addr_set(netdev, addr);
    return ret;
}
