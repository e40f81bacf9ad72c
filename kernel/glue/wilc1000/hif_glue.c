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

/* One WID in one config packet ('W' for WILC_SET_CFG, 'Q' for WILC_GET_CFG); logs `what` when
 * the packet fails. */
static int send_wid(struct wilc_vif* vif, u8 dir, u16 id, enum wid_type type, void* val, s32 size,
                    const char* what)
{
    struct wid w = {.id = id, .type = type, .size = size, .val = val};
    int err = wilc_send_config_pkt(vif, dir, &w, 1);

    if (err)
        netdev_err(vif->ndev, "Failed to %s\n", what);
    return err;
}

/* The firmware's driver handle for this interface and its mode (bit 0 the interface id). */
int wilc_set_operation_mode(struct wilc_vif* vif, int index, u8 mode, u8 ifc_id)
{
    struct wilc_drv_handler h = {.handler = cpu_to_le32(index), .mode = ifc_id | (mode << 1)};

    return send_wid(vif, WILC_SET_CFG, WID_SET_OPERATION_MODE, WID_STR, &h, sizeof(h),
                    "set driver handler");
}

static int mac_address_wid(struct wilc_vif* vif, u8 dir, u8* mac)
{
    return send_wid(vif, dir, WID_MAC_ADDR, WID_STR, mac, ETH_ALEN,
                    dir == WILC_GET_CFG ? "get mac address" : "set mac address");
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
 * mc_list, and answers 0 whatever the firmware said (the driver's own code queues the work
 * and returns). */
int wilc_setup_multicast_filter(struct wilc_vif* vif, u32 enabled, u32 count, u8* mc_list)
{
    const s32 len = 8 + count * ETH_ALEN;
    u8* buf = kmalloc(len, GFP_KERNEL);

    if (!buf)
        return -ENOMEM;
    put_unaligned_le32(enabled, buf);
    put_unaligned_le32(count, buf + 4);
    if (count && mc_list)
        memcpy(buf + 8, mc_list, count * ETH_ALEN);
    send_wid(vif, WILC_SET_CFG, WID_SETUP_MULTICAST_FILTER, WID_BIN, buf, len,
             "send setup multicast");
    kfree(buf);
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

/* `iw dev wlan0 set power_save on|off`: WID_POWER_MANAGEMENT (MIN_FAST_PS or NO_POWERSAVE);
 * the host lets the chip sleep only once the firmware accepted it. */
static int glue_set_power_mgmt(struct net_device* ndev, int enabled)
{
    struct wilc_vif* vif = netdev_priv(ndev);
    s8 mode = enabled ? WILC_FW_MIN_FAST_PS : WILC_FW_NO_POWERSAVE;
    int err = send_wid(vif, WILC_SET_CFG, WID_POWER_MANAGEMENT, WID_CHAR, &mode, sizeof(char),
                       "send power management");

    if (!err)
        vif->wilc->power_save_mode = enabled != 0;
    return err;
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
    .tcp_ack_filter = wilc_glue_tcp_ack_filter,
};

/* Runs when the binary loads, like the variant's module_init constructors. */
static void __attribute__((constructor)) glue_register(void)
{
    lx_bus_wilc_ops_register(LX_EMUL_VARIANT, &glue_ops);
}
