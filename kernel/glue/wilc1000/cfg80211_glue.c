// SPDX-License-Identifier: MIT
/* Stand-in for wilc1000's cfg80211.c and mon.c (not compiled: they need the cfg80211 core).
 * Compiled into each wilc1000 variant, so it sees the variant's struct wilc layout.
 * wilc_cfg80211_init follows what the driver's probe path needs from cfg80211.c: one
 * allocation holding wiphy + struct wilc (wiphy_free frees both, as netdev.c relies on), every
 * lock/completion initialised (wlan_init_locks semantics), the cfg tables, the queue lists, the
 * ordered hif workqueue, and (6.1; 6.12's bus probe does it itself) the "wlan%d" station
 * interface registered at once. */
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/firmware.h>

#include "netdev.h"
#include "cfg80211.h"
#include "wilc_glue.h"

static void init_locks(struct wilc* wl)
{
    mutex_init(&wl->hif_cs);
    mutex_init(&wl->rxq_cs);
    mutex_init(&wl->cfg_cmd_lock);
    mutex_init(&wl->vif_mutex);
    mutex_init(&wl->deinit_lock);
    mutex_init(&wl->txq_add_to_head_cs);
    spin_lock_init(&wl->txq_spinlock);
    init_completion(&wl->txq_event);
    init_completion(&wl->cfg_event);
    init_completion(&wl->sync_event);
    init_completion(&wl->txq_thread_started);
    init_srcu_struct(&wl->srcu);
}

void wlan_deinit_locks(struct wilc* wilc)
{
    mutex_destroy(&wilc->hif_cs);
    mutex_destroy(&wilc->rxq_cs);
    mutex_destroy(&wilc->cfg_cmd_lock);
    mutex_destroy(&wilc->txq_add_to_head_cs);
    mutex_destroy(&wilc->vif_mutex);
    mutex_destroy(&wilc->deinit_lock);
    cleanup_srcu_struct(&wilc->srcu);
}

int wilc_cfg80211_init(struct wilc** wilc, struct device* dev, int io_type,
                       const struct wilc_hif_func* ops)
{
    struct wiphy* wiphy;
    struct wilc* wl;
    struct wilc_vif* vif;
    int ret, i;

    wiphy = lx_emul_wiphy_new(sizeof(*wl));
    if (!wiphy)
        return -EINVAL;
    set_wiphy_dev(wiphy, dev);
    wl = wiphy_priv(wiphy);
    wl->wiphy = wiphy;
    /* wilc_create_wiphy copies the static channel/rate tables and cipher suites. */
    memcpy(wl->channels, wilc_2ghz_channels, sizeof(wilc_2ghz_channels));
    memcpy(wl->bitrates, wilc_bitrates, sizeof(wilc_bitrates));
    memcpy(wl->cipher_suites, wilc_cipher_suites, sizeof(wilc_cipher_suites));
    wl->band.channels = wl->channels;
    wl->band.n_channels = ARRAY_SIZE(wilc_2ghz_channels);
    wl->band.bitrates = wl->bitrates;
    wl->band.n_bitrates = ARRAY_SIZE(wilc_bitrates);
    wiphy_register(wiphy);

    init_locks(wl);
    ret = wilc_wlan_cfg_init(wl);
    if (ret)
        goto free_wl;

    *wilc = wl;
    wl->io_type = io_type;
    wl->hif_func = ops;
    for (i = 0; i < NQUEUES; i++)
        INIT_LIST_HEAD(&wl->txq[i].txq_head.list);
    INIT_LIST_HEAD(&wl->rxq_head.list);
    INIT_LIST_HEAD(&wl->vif_list);

    wl->hif_workqueue = alloc_ordered_workqueue("%s", WQ_MEM_RECLAIM, "phy0");
    if (!wl->hif_workqueue) {
        ret = -ENOMEM;
        goto free_cfg;
    }

#if NICSIM_LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
    /* 6.1's cfg80211.c registers the station interface here; 6.12's bus probe does it itself
     * (after reading the MAC address from the chip's NV memory). */
    vif = wilc_netdev_ifc_init(wl, "wlan%d", WILC_STATION_MODE, NL80211_IFTYPE_STATION, false);
    if (IS_ERR(vif)) {
        ret = PTR_ERR(vif);
        goto free_hq;
    }
    return 0;

free_hq:
    destroy_workqueue(wl->hif_workqueue);
#else
    (void)vif;
    return 0;
#endif
free_cfg:
    wilc_wlan_cfg_deinit(wl);
free_wl:
    wlan_deinit_locks(wl);
    wiphy_unregister(wiphy);
    wiphy_free(wiphy);
    return ret;
}

/* wilc_init_host_int: cfg80211.c + hif.c's wilc_init(): a zeroed host_if_drv in the HOST_IF_IDLE
 * state with hif.c's connect timer (connect_glue.c) and its 5 s statistics timer (stats_glue.c).
 * Not the scan/remain-on-channel timers (no scan or P2P runs). */
int wilc_init_host_int(struct net_device* net)
{
    struct wilc_vif* vif = netdev_priv(net);
    struct wilc_priv* priv = &vif->priv;
    struct host_if_drv* hif_drv;

    priv->p2p_listen_state = false;
    mutex_init(&priv->scan_req_lock);
    hif_drv = kzalloc(sizeof(*hif_drv), GFP_KERNEL);
    if (!hif_drv) {
        netdev_err(net, "Error while initializing hostinterface\n");
        return -ENOMEM;
    }
    wilc_glue_connect_init(hif_drv);
    hif_drv->hif_state = HOST_IF_IDLE;
    priv->hif_drv = hif_drv;
    vif->hif_drv = hif_drv;
    wilc_glue_stats_init(vif);
    return 0;
}

void wilc_deinit_host_int(struct net_device* net)
{
    struct wilc_vif* vif = netdev_priv(net);
    struct wilc_priv* priv = &vif->priv;

    priv->p2p_listen_state = false;
    wilc_glue_stats_deinit(vif);
    if (vif->hif_drv)
        wilc_glue_connect_deinit(vif->hif_drv); /* wilc_deinit's del_timer_syncs */
    flush_workqueue(vif->wilc->hif_workqueue);
    mutex_destroy(&priv->scan_req_lock);
    kfree(vif->hif_drv);
    vif->hif_drv = NULL;
    priv->hif_drv = NULL;
}

/* Management-frame registration needs cfg80211 (userspace registrations): none exist. */
void wilc_update_mgmt_frame_registrations(struct wiphy* wiphy, struct wireless_dev* wdev,
                                          struct mgmt_frame_regs* upd)
{
}

/* Management frames for cfg80211 (auth/P2P): no cfg80211 to deliver to; counted and logged. */
bool wilc_wfi_mgmt_frame_rx(struct wilc_vif* vif, u8* buff, u32 size)
{
    netdev_dbg(vif->ndev, "management frame of %u bytes dropped (no cfg80211)\n", size);
    return false;
}

void wilc_wfi_p2p_rx(struct wilc_vif* vif, u8* buff, u32 size)
{
    netdev_dbg(vif->ndev, "P2P frame of %u bytes dropped (no cfg80211)\n", size);
}

/* mon.c: no monitor interface is ever created. */
void wilc_wfi_deinit_mon_interface(struct wilc* wl, bool rtnl_locked) {}
void wilc_wfi_monitor_rx(struct net_device* mon_dev, u8* buff, u32 size) {}
