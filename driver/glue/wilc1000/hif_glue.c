// SPDX-License-Identifier: MIT
/* Stand-in for the parts of wilc1000's hif.c the core and netdev.c call (hif.c is not
 * compiled). The WID wrappers send the same WIDs the kernel's do, through the driver's own
 * wilc_send_config_pkt; they run synchronously in the caller instead of on the hif workqueue.
 * Also the testbench entry points (struct lx_bus_wilc_ops in nicsim/lx_bus.h, registered per
 * variant): power save here, connect in connect_glue.c. */
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/slab.h>
#include <asm/unaligned.h>

#include "netdev.h"
#include "cfg80211.h"
#include <nicsim/lx_bus.h>

#include "wilc_glue.h"

int wilc_get_vif_idx(struct wilc_vif* vif) { return vif->idx + 1; }

int wilc_set_operation_mode(struct wilc_vif* vif, int index, u8 mode, u8 ifc_id)
{
    struct wid wid;
    struct wilc_drv_handler drv;
    int result;

    wid.id = WID_SET_OPERATION_MODE;
    wid.type = WID_STR;
    wid.size = sizeof(drv);
    wid.val = (s8*)&drv;
    drv.handler = cpu_to_le32(index);
    drv.mode = (ifc_id | (mode << 1));
    result = wilc_send_config_pkt(vif, WILC_SET_CFG, &wid, 1);
    if (result)
        netdev_err(vif->ndev, "Failed to set driver handler\n");
    return result;
}

static int mac_address_wid(struct wilc_vif* vif, u8 mode, u8* mac_addr)
{
    struct wid wid;
    int result;

    wid.id = WID_MAC_ADDR;
    wid.type = WID_STR;
    wid.size = ETH_ALEN;
    wid.val = (s8*)mac_addr;
    result = wilc_send_config_pkt(vif, mode, &wid, 1);
    if (result)
        netdev_err(vif->ndev, "Failed to %s mac address\n", mode == WILC_GET_CFG ? "get" : "set");
    return result;
}

int wilc_get_mac_address(struct wilc_vif* vif, u8* mac_addr)
{
    return mac_address_wid(vif, WILC_GET_CFG, mac_addr);
}

#if NICSIM_LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
int wilc_set_mac_address(struct wilc_vif* vif, const u8* mac_addr)
#else
int wilc_set_mac_address(struct wilc_vif* vif, u8* mac_addr)
#endif
{
    return mac_address_wid(vif, WILC_SET_CFG, (u8*)mac_addr);
}

/* WID_SETUP_MULTICAST_FILTER payload: le32 enabled, le32 count, count MACs. Takes ownership of
 * mc_list on success (as hif.c's work item does). */
int wilc_setup_multicast_filter(struct wilc_vif* vif, u32 enabled, u32 count, u8* mc_list)
{
    struct wid wid;
    u8* cur;
    int result;

    wid.id = WID_SETUP_MULTICAST_FILTER;
    wid.type = WID_BIN;
    wid.size = 8 + count * ETH_ALEN;
    wid.val = kmalloc(wid.size, GFP_KERNEL);
    if (!wid.val)
        return -ENOMEM;
    cur = (u8*)wid.val;
    put_unaligned_le32(enabled, cur);
    put_unaligned_le32(count, cur + 4);
    if (count && mc_list)
        memcpy(cur + 8, mc_list, count * ETH_ALEN);
    result = wilc_send_config_pkt(vif, WILC_SET_CFG, &wid, 1);
    if (result)
        netdev_err(vif->ndev, "Failed to send setup multicast\n");
    kfree(wid.val);
    kfree(mc_list);
    return 0;
}

/* Network info ('N': a beacon or probe response found by a scan) and scan complete ('S'): hif.c
 * hands them to a scan request's callback; no scan runs here (the connect glue takes the BSS
 * from the testbench), so they are logged and dropped. The connect path ('I') is
 * connect_glue.c. */
void wilc_network_info_received(struct wilc* wilc, u8* buffer, u32 length)
{
    pr_debug("wilc1000: network info of %u bytes dropped (no hif/cfg80211)\n", length);
}

void wilc_scan_complete_received(struct wilc* wilc, u8* buffer, u32 length)
{
    pr_debug("wilc1000: scan complete of %u bytes dropped (no hif/cfg80211)\n", length);
}

/* ---- testbench entry points ------------------------------------------------------------------ */

/* hif.c's wilc_set_power_mgmt: WID_POWER_MANAGEMENT (MIN_FAST_PS or NO_POWERSAVE); the host
 * sleeps the chip only once the firmware accepted it. */
static int glue_set_power_mgmt(struct net_device* ndev, int enabled)
{
    struct wilc_vif* vif = netdev_priv(ndev);
    struct wilc* wilc = vif->wilc;
    struct wid wid;
    s8 power_mode = enabled ? WILC_FW_MIN_FAST_PS : WILC_FW_NO_POWERSAVE;
    int result;

    wid.id = WID_POWER_MANAGEMENT;
    wid.type = WID_CHAR;
    wid.val = &power_mode;
    wid.size = sizeof(char);
    result = wilc_send_config_pkt(vif, WILC_SET_CFG, &wid, 1);
    if (result)
        netdev_err(vif->ndev, "Failed to send power management\n");
    else
        wilc->power_save_mode = enabled != 0;
    return result;
}

static int glue_power_save_mode(struct net_device* ndev)
{
    struct wilc_vif* vif = netdev_priv(ndev);
    return vif->wilc->power_save_mode;
}

static const struct lx_bus_wilc_ops glue_ops = {
    .set_power_mgmt = glue_set_power_mgmt,
    .connect = wilc_glue_connect,
    .connected = wilc_glue_connected,
    .power_save_mode = glue_power_save_mode,
};

/* Runs when the binary loads, like the variant's module_init constructors. */
static void __attribute__((constructor)) glue_register(void)
{
    lx_bus_wilc_ops_register(LX_EMUL_VARIANT, &glue_ops);
}
