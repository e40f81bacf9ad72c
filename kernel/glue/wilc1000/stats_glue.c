// SPDX-License-Identifier: MIT
/* The link statistics of wilc1000's hif.c (not compiled, see connect_glue.c): every 5 s while
 * the station is connected, hif.c's periodic_rssi timer queues a work item on the driver's hif
 * workqueue that asks the firmware for five statistics WIDs in one 'Q' config packet, and the
 * link speed it reads switches the driver's TCP ACK filter (wlan.c): on above 54 Mbit/s, off at
 * or below, unchanged at 72 (DEFAULT_LINK_SPEED). Here the same timer, work item, WIDs (order,
 * types, sizes) and decision, written for the emulation (docs/models/wilc1000.md "Statistics
 * and the TCP ACK filter"). */
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#include "netdev.h"
#include <nicsim/lx_bus.h>

#include "wilc_glue.h"

/* hif.c's period of the statistics query. */
#define STATS_PERIOD_MS 5000

static void set_query(struct wid* w, u16 id, enum wid_type type, void* val, s32 size)
{
    w->id = id;
    w->type = type;
    w->val = val;
    w->size = size;
}

int wilc_get_statistics(struct wilc_vif* vif, struct rf_info* stats)
{
    struct wid wids[5];
    int err;

    set_query(&wids[0], WID_LINKSPEED, WID_CHAR, &stats->link_speed, sizeof(char));
    set_query(&wids[1], WID_RSSI, WID_CHAR, &stats->rssi, sizeof(char));
    set_query(&wids[2], WID_SUCCESS_FRAME_COUNT, WID_INT, &stats->tx_cnt, sizeof(u32));
    set_query(&wids[3], WID_RECEIVED_FRAGMENT_COUNT, WID_INT, &stats->rx_cnt, sizeof(u32));
    set_query(&wids[4], WID_FAILED_COUNT, WID_INT, &stats->tx_fail_cnt, sizeof(u32));
    err = wilc_send_config_pkt(vif, WILC_GET_CFG, wids, ARRAY_SIZE(wids));
    if (err) {
        netdev_err(vif->ndev, "Failed to send scan parameters\n");
        return err;
    }
    if (stats->link_speed != DEFAULT_LINK_SPEED)
        wilc_enable_tcp_ack_filter(vif, stats->link_speed > TCP_ACK_FILTER_LINK_SPEED_THRESH);
    return 0;
}

static void stats_job_run(struct work_struct* work)
{
    struct wilc_glue_job* job = container_of(work, struct wilc_glue_job, work);

    wilc_get_statistics(job->vif, &job->vif->periodic_stat);
    kfree(job);
}

/* hif.c's get_periodic_rssi: the query only while connected; the timer always re-arms. */
static void periodic_stats_fired(struct timer_list* t)
{
    struct wilc_vif* vif = from_timer(vif, t, periodic_rssi);

    if (!vif->hif_drv) {
        netdev_err(vif->ndev, "%s: hif driver is NULL", __func__);
        return;
    }
    if (vif->hif_drv->hif_state == HOST_IF_CONNECTED &&
        wilc_glue_queue_job(vif, stats_job_run, 0))
        netdev_err(vif->ndev, "%s: enqueue work failed\n", __func__);
    mod_timer(&vif->periodic_rssi, jiffies + msecs_to_jiffies(STATS_PERIOD_MS));
}

void wilc_glue_stats_init(struct wilc_vif* vif)
{
    timer_setup(&vif->periodic_rssi, periodic_stats_fired, 0);
    mod_timer(&vif->periodic_rssi, jiffies + msecs_to_jiffies(STATS_PERIOD_MS));
}

void wilc_glue_stats_deinit(struct wilc_vif* vif)
{
    del_timer_sync(&vif->periodic_rssi);
}

int wilc_glue_tcp_ack_filter(struct net_device* dev)
{
    struct wilc_vif* vif = netdev_priv(dev);

    return vif->ack_filter.enabled;
}
