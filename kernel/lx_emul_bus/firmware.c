// SPDX-License-Identifier: MIT
/* request_firmware from an in-memory table (registered by glue or testbench), wiphy objects
 * for the wilc1000 glue, and the device-tree MAC lookup. */
#include <linux/kernel.h>
#include <linux/firmware.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include <linux/of_net.h>
#include <linux/etherdevice.h>
#include <net/cfg80211.h>

#include <lx_kit/lx_kit.h>
#include <nicsim/lx_bus.h>

#define LX_FW_MAX 16

struct lx_fw_entry {
    char name[96];
    const u8* data;
    size_t size;
};
static struct lx_fw_entry fw_table[LX_FW_MAX];
static unsigned fw_count;

void lx_emul_firmware_register(const char* name, const u8* data, size_t size)
{
    for (unsigned i = 0; i < fw_count; i++) {
        if (!strcmp(fw_table[i].name, name)) {
            fw_table[i].data = data;
            fw_table[i].size = size;
            return;
        }
    }
    if (fw_count == LX_FW_MAX)
        lx_kit_abort("lx_emul_firmware_register(%s): table full", name);
    if (strlen(name) >= sizeof(fw_table[0].name))
        lx_kit_abort("lx_emul_firmware_register: name too long: %s", name);
    strcpy(fw_table[fw_count].name, name);
    fw_table[fw_count].data = data;
    fw_table[fw_count].size = size;
    fw_count++;
}

void lx_bus_firmware_register(const char* name, const uint8_t* data, size_t size)
{
    lx_emul_firmware_register(name, data, size);
}

int request_firmware(const struct firmware** fw, const char* name, struct device* device)
{
    *fw = NULL;
    for (unsigned i = 0; i < fw_count; i++) {
        if (strcmp(fw_table[i].name, name))
            continue;
        struct firmware* f = kzalloc(sizeof(*f), GFP_KERNEL);
        if (!f)
            return -ENOMEM;
        f->data = fw_table[i].data;
        f->size = fw_table[i].size;
        *fw = f;
        return 0;
    }
    dev_err(device, "Direct firmware load for %s failed with error -2\n", name);
    return -ENOENT;
}

void release_firmware(const struct firmware* fw) { kfree((void*)fw); }

/* ---- wiphy ----------------------------------------------------------------------------------- */

struct wiphy* lx_emul_wiphy_new(size_t sizeof_priv)
{
    struct wiphy* w = kzalloc(sizeof(*w), GFP_KERNEL);
    if (!w)
        return NULL;
    w->nicsim_priv = kzalloc(sizeof_priv ? sizeof_priv : 1, GFP_KERNEL);
    if (!w->nicsim_priv) {
        kfree(w);
        return NULL;
    }
    return w;
}

int wiphy_register(struct wiphy* wiphy)
{
    wiphy->registered = true;
    return 0;
}

void wiphy_unregister(struct wiphy* wiphy) { wiphy->registered = false; }

/* Frees the private area too: wilc1000's struct wilc lives there (netdev.c relies on it). */
void wiphy_free(struct wiphy* wiphy)
{
    if (!wiphy)
        return;
    kfree(wiphy->nicsim_priv);
    kfree(wiphy);
}

/* ---- device tree ----------------------------------------------------------------------------- */

int of_get_ethdev_address(struct device_node* np, struct net_device* dev)
{
    if (!np || !np->has_mac_address || !is_valid_ether_addr(np->mac_address))
        return -ENODEV;
    eth_hw_addr_set(dev, np->mac_address);
    return 0;
}

/* device_get_mac_address (net/ethernet/eth.c) tries "mac-address", "local-mac-address" and
 * "address" of the firmware node and takes the first valid one; nicsim's node carries only
 * "local-mac-address". */
int device_get_mac_address(struct device* dev, char* addr)
{
    const struct device_node* np = dev ? dev->of_node : NULL;
    if (!np || !np->has_mac_address || !is_valid_ether_addr(np->mac_address))
        return -ENOENT;
    memcpy(addr, np->mac_address, ETH_ALEN);
    return 0;
}

int device_get_ethdev_address(struct device* dev, struct net_device* netdev)
{
    u8 addr[ETH_ALEN];
    int ret = device_get_mac_address(dev, (char*)addr);
    if (!ret)
        eth_hw_addr_set(netdev, addr);
    return ret;
}
