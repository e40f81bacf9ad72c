// SPDX-License-Identifier: MIT
/* lx_emul_real: what the net device's address and the random numbers behind a random MAC need.
 * dev_addr_mod writes the address where dev_addr points and into dev_addr_shadow, the copy the
 * kernel keeps to catch direct writes; get_random_bytes draws from lx_emul's stream, so
 * eth_random_addr gives the shadow headers' addresses. */
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/string.h>

#include <lx_emul/shared.h>

#include "internal.h"

void dev_addr_mod(struct net_device *dev, unsigned int offset, const void *addr, size_t len)
{
    if (offset + len > MAX_ADDR_LEN || !dev->dev_addr)
        lx_kit_abort("dev_addr_mod: %zu bytes at %u of %s's address (%s)", len, offset,
                     dev->name, dev->dev_addr ? "past MAX_ADDR_LEN" : "no dev_addr");
    memcpy((unsigned char *)dev->dev_addr + offset, addr, len);
    memcpy(&dev->dev_addr_shadow[offset], addr, len);
}

void get_random_bytes(void *buf, size_t len)
{
    lx_emul_random_bytes(buf, len);
}
