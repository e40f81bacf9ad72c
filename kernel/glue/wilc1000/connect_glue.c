// SPDX-License-Identifier: MIT
/* The station's connect, as the driver's cfg80211.c (connect, the connect-result callback) and
 * hif.c (the join request, its timer, the handling of the firmware's 'I' status) would run it.
 * Neither file is compiled (hif.c needs ~35 cfg80211 definitions and brings the 5 s statistics
 * WIDs; cfg80211.c needs the cfg80211 core), so this glue does what they do, written here:
 * the same WIDs in the same order, types and sizes, the same struct wilc_join_bss_param, the
 * same work items on the driver's hif workqueue and the same 9.5 s connect timer. What differs
 * (docs/models/wilc1000.md "Connect sequence"):
 * - the BSS comes from the testbench (the scenario's access point) instead of cfg80211's scan
 *   table, so no scan runs and no 'N' network-info message is involved;
 * - the client is `iw dev wlan0 connect <ssid>` to an open network: cfg80211 passes
 *   NL80211_AUTHTYPE_AUTOMATIC (WILC_FW_AUTH_ANY), no crypto, no MFP, no extra IEs;
 * - cfg80211's own bookkeeping (cfg80211_connect_bss, cfg80211_disconnected) is only logged. */
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <asm/unaligned.h>

#include "netdev.h"
#include "cfg80211.h"
#include <nicsim/lx_bus.h>

#include "wilc_glue.h"

/* How long the driver waits for the firmware's connect status (hif.c's connect timeout). */
#define JOIN_TIMEOUT_MS 9500

/* 6.12 renamed conn_info.arg to .priv and typed the callback's argument. */
#if NICSIM_LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
typedef struct wilc_priv* conn_priv_t;
#define CONN_PRIV(ci) ((ci)->priv)
#else
typedef void* conn_priv_t;
#define CONN_PRIV(ci) ((ci)->arg)
#endif

/* One job for the driver's hif workqueue (wilc_glue.h), as hif.c's wilc_enqueue_work queues its
 * messages. */
int wilc_glue_queue_job(struct wilc_vif* vif, work_func_t run, u8 mac_status)
{
    struct wilc_glue_job* job = kzalloc(sizeof(*job), GFP_ATOMIC);

    if (!job)
        return -ENOMEM;
    job->vif = vif;
    job->mac_status = mac_status;
    INIT_WORK(&job->work, run);
    if (vif->wilc->hif_workqueue && queue_work(vif->wilc->hif_workqueue, &job->work))
        return 0;
    kfree(job);
    return -EINVAL;
}

/* Frees what the connect attempt allocated for the request's extra IEs. */
static void drop_req_ies(struct wilc_conn_info* ci)
{
    kfree(ci->req_ies);
    ci->req_ies = NULL;
    ci->req_ies_len = 0;
}

/* ---- the cfg80211 side ----------------------------------------------------------------------- */

/* The connect-result callback: a connect that failed, and a disconnect, forget the BSSID the
 * connect set, so RX from it stops. cfg80211 itself is only told in the log. */
static void on_conn_event(enum conn_event evt, u8 mac_status, conn_priv_t arg)
{
    struct wilc_priv* priv = arg;
    struct wilc_vif* vif = netdev_priv(priv->dev);
    struct wilc_conn_info* ci = &priv->hif_drv->conn_info;
    u16 status;

    vif->connecting = false;
    switch (evt) {
    case CONN_DISCONN_EVENT_CONN_RESP:
        status = ci->status;
        if (status == WLAN_STATUS_SUCCESS && mac_status == WILC_MAC_STATUS_DISCONNECTED) {
            /* The firmware reported no association: cfg80211 hears "unspecified failure". */
            status = WLAN_STATUS_UNSPECIFIED_FAILURE;
            wilc_wlan_set_bssid(priv->dev, NULL, WILC_STATION_MODE);
            netdev_err(priv->dev, "Unspecified failure\n");
        }
        if (status == WLAN_STATUS_SUCCESS)
            memcpy(priv->associated_bss, ci->bssid, ETH_ALEN);
        netdev_dbg(priv->dev, "connect result: status %u to %pM\n", status, ci->bssid);
        break;
    case CONN_DISCONN_EVENT_DISCONN_NOTIF:
        eth_zero_addr(priv->associated_bss);
        wilc_wlan_set_bssid(priv->dev, NULL, WILC_STATION_MODE);
        netdev_dbg(priv->dev, "disconnected\n");
        break;
    default:
        break;
    }
}

/* The join parameters of an open BSS, as the driver derives them from the BSS and its beacon
 * (SSID, TIM, rates, HT capabilities, WMM): no WPA/RSN element and no P2P NoA, so the cipher
 * and AKM suites are 0xFF ("none") and the NoA fields 0. */
static struct wilc_join_bss_param* join_param_of(const struct lx_bus_wilc_bss* bss)
{
    struct wilc_join_bss_param* jp = kzalloc(sizeof(*jp), GFP_KERNEL);
    u8 rates;

    if (!jp)
        return NULL;
    jp->bss_type = WILC_FW_BSS_TYPE_INFRA;
    jp->ch = bss->channel;
    jp->beacon_period = cpu_to_le16(bss->beacon_interval);
    jp->dtim_period = bss->dtim_period;
    jp->cap_info = cpu_to_le16(bss->capability);
    ether_addr_copy(jp->bssid, bss->bssid);
    if (bss->ssid_len <= IEEE80211_MAX_SSID_LEN)
        memcpy(jp->ssid, bss->ssid, bss->ssid_len);
    memset(jp->p_suites, 0xFF, sizeof(jp->p_suites));
    memset(jp->akm_suites, 0xFF, sizeof(jp->akm_suites));
    /* Supported then Extended Supported Rates, length-prefixed, at most WILC_MAX_RATES_SUPPORTED. */
    rates = min_t(u8, bss->n_rates, WILC_MAX_RATES_SUPPORTED);
    jp->supp_rates[0] = rates;
    memcpy(jp->supp_rates + 1, bss->rates, rates);
    jp->ht_capable = bss->ht != 0;
    jp->wmm_cap = bss->wmm != 0;
    jp->uapsd_cap = bss->wmm && bss->uapsd;
    return jp;
}

/* ---- the hif side ---------------------------------------------------------------------------- */

static void set_wid(struct wid* w, u16 id, enum wid_type type, void* val, s32 size)
{
    w->id = id;
    w->type = type;
    w->val = val;
    w->size = size;
}

/* The join request: one 'W' with MFP, the association IEs, the 802.11i mode, the
 * authentication type and the extended join request, in that order. */
static int send_join(struct wilc_vif* vif)
{
    struct host_if_drv* hd = vif->hif_drv;
    struct wilc_conn_info* ci = &hd->conn_info;
    struct wid wids[5];
    int err;

    set_wid(&wids[0], WID_SET_MFP, WID_CHAR, &ci->mfp_type, sizeof(char));
    set_wid(&wids[1], WID_INFO_ELEMENT_ASSOCIATE, WID_BIN_DATA, ci->req_ies, ci->req_ies_len);
    set_wid(&wids[2], WID_11I_MODE, WID_CHAR, &ci->security, sizeof(char));
    set_wid(&wids[3], WID_AUTH_TYPE, WID_CHAR, &ci->auth_type, sizeof(char));
    set_wid(&wids[4], WID_JOIN_REQ_EXTENDED, WID_STR, ci->param,
            sizeof(struct wilc_join_bss_param)); /* conn_info.param is a void * */
    err = wilc_send_config_pkt(vif, WILC_SET_CFG, wids, ARRAY_SIZE(wids));
    if (err) {
        netdev_err(vif->ndev, "failed to send config packet\n");
        drop_req_ies(ci);
        return err;
    }
    /* SAE would first hand authentication to user space; an open connect waits for the 'I'. */
    hd->hif_state = ci->auth_type == WILC_FW_AUTH_SAE ? HOST_IF_EXTERNAL_AUTH
                                                      : HOST_IF_WAITING_CONN_RESP;
    return 0;
}

/* Records the target, sends the join and arms the connect timer. */
static int start_join(struct wilc_vif* vif, const u8* bssid)
{
    struct host_if_drv* hd = vif->hif_drv;
    int err;

    ether_addr_copy(hd->conn_info.bssid, bssid);
    err = send_join(vif);
    if (err) {
        kfree(hd->conn_info.req_ies);
        return err;
    }
    hd->connect_timer_vif = vif;
    mod_timer(&hd->connect_timer, jiffies + msecs_to_jiffies(JOIN_TIMEOUT_MS));
    return 0;
}

/* The connect timer's job: the connect failed; the firmware is told to give up (WID_DISCONNECT
 * with reason 0). */
static void join_timed_out(struct work_struct* work)
{
    struct wilc_glue_job* job = container_of(work, struct wilc_glue_job, work);
    struct wilc_vif* vif = job->vif;
    struct host_if_drv* hd = vif->hif_drv;
    u16 reason = 0;
    struct wid w;

    if (!hd) {
        netdev_err(vif->ndev, "%s: hif driver is NULL\n", __func__);
        goto done;
    }
    hd->hif_state = HOST_IF_IDLE;
    if (!hd->conn_info.conn_result)
        netdev_err(vif->ndev, "%s: conn_result is NULL\n", __func__);
    else
        hd->conn_info.conn_result(CONN_DISCONN_EVENT_CONN_RESP, WILC_MAC_STATUS_DISCONNECTED,
                                  CONN_PRIV(&hd->conn_info));
    set_wid(&w, WID_DISCONNECT, WID_CHAR, &reason, sizeof(char));
    if (wilc_send_config_pkt(vif, WILC_SET_CFG, &w, 1))
        netdev_err(vif->ndev, "Failed to send disconnect\n");
    drop_req_ies(&hd->conn_info);
done:
    kfree(job);
}

static void connect_timer_fired(struct timer_list* t)
{
    struct host_if_drv* hd = from_timer(hd, t, connect_timer);

    wilc_glue_queue_job(hd->connect_timer_vif, join_timed_out, 0);
}

/* Reads WID_ASSOC_RES_INFO (the association response body the firmware kept) into
 * hd->assoc_resp and takes its status code and IEs. */
static void fetch_assoc_response(struct wilc_vif* vif)
{
    struct host_if_drv* hd = vif->hif_drv;
    struct wilc_conn_info* ci = &hd->conn_info;
    const size_t head = sizeof(struct wilc_assoc_resp);
    struct wid w;
    u32 len;

    memset(hd->assoc_resp, 0, WILC_MAX_ASSOC_RESP_FRAME_SIZE);
    set_wid(&w, WID_ASSOC_RES_INFO, WID_STR, hd->assoc_resp, WILC_MAX_ASSOC_RESP_FRAME_SIZE);
    if (wilc_send_config_pkt(vif, WILC_GET_CFG, &w, 1)) {
        netdev_err(vif->ndev, "Failed to send association response\n");
        return;
    }
    len = w.size;
    if (len == 0)
        return;
    if (len < head) {
        ci->status = WLAN_STATUS_UNSPECIFIED_FAILURE;
        netdev_err(vif->ndev, "wilc_parse_assoc_resp_info() returned error %d\n", -EINVAL);
        return;
    }
    ci->status = get_unaligned_le16(&((struct wilc_assoc_resp*)hd->assoc_resp)->status_code);
    if (ci->status != WLAN_STATUS_SUCCESS)
        return;
    ci->resp_ies = kmemdup(hd->assoc_resp + head, len - head, GFP_KERNEL);
    if (!ci->resp_ies) {
        netdev_err(vif->ndev, "wilc_parse_assoc_resp_info() returned error %d\n", -ENOMEM);
        return;
    }
    ci->resp_ies_len = len - head;
}

/* The firmware answered the join: on "connected" fetch the association response, then report
 * the result, stop the timer and settle the state. */
static void finish_join(struct wilc_vif* vif, u8 mac_status)
{
    struct host_if_drv* hd = vif->hif_drv;
    struct wilc_conn_info* ci = &hd->conn_info;
    const bool connected = mac_status == WILC_MAC_STATUS_CONNECTED;

    if (connected)
        fetch_assoc_response(vif);
    del_timer(&hd->connect_timer);
    ci->conn_result(CONN_DISCONN_EVENT_CONN_RESP, mac_status, CONN_PRIV(ci));
    if (connected && ci->status == WLAN_STATUS_SUCCESS) {
        ether_addr_copy(hd->assoc_bssid, ci->bssid);
        hd->hif_state = HOST_IF_CONNECTED;
    } else {
        hd->hif_state = HOST_IF_IDLE;
    }
    kfree(ci->resp_ies);
    ci->resp_ies = NULL;
    ci->resp_ies_len = 0;
    drop_req_ies(ci);
}

/* netdev.c calls this on ndo_stop: the association is gone (no scan to abort here). */
void wilc_handle_disconnect(struct wilc_vif* vif)
{
    struct host_if_drv* hd = vif->hif_drv;

    if (hd->conn_info.conn_result)
        hd->conn_info.conn_result(CONN_DISCONN_EVENT_DISCONN_NOTIF, 0, CONN_PRIV(&hd->conn_info));
    eth_zero_addr(hd->assoc_bssid);
    drop_req_ies(&hd->conn_info);
    hd->hif_state = HOST_IF_IDLE;
}

/* The job an 'I' queues, by the state the connect is in (the SAE branch only moves the state:
 * an open connect never takes it). */
static void status_received(struct work_struct* work)
{
    struct wilc_glue_job* job = container_of(work, struct wilc_glue_job, work);
    struct wilc_vif* vif = job->vif;
    struct host_if_drv* hd = vif->hif_drv;

    if (!hd) {
        netdev_err(vif->ndev, "%s: hif driver is NULL\n", __func__);
    } else if (!hd->conn_info.conn_result) {
        netdev_err(vif->ndev, "%s: conn_result is NULL\n", __func__);
    } else if (hd->hif_state == HOST_IF_EXTERNAL_AUTH) {
        hd->hif_state = HOST_IF_WAITING_CONN_RESP;
    } else if (hd->hif_state == HOST_IF_WAITING_CONN_RESP) {
        finish_join(vif, job->mac_status);
    } else if (hd->hif_state == HOST_IF_CONNECTED &&
               job->mac_status == WILC_MAC_STATUS_DISCONNECTED) {
        wilc_handle_disconnect(vif);
    }
    kfree(job);
}

/* The interface an 'I' names: its last four bytes hold the driver handle, vif index + 1. */
static struct wilc_vif* vif_by_handle(struct wilc* wilc, int handle)
{
    struct wilc_vif* vif;

    if (handle < 1 || handle > WILC_NUM_CONCURRENT_IFC)
        return NULL;
    list_for_each_entry_rcu(vif, &wilc->vif_list, list)
    {
        if (vif->idx == handle - 1)
            return vif;
    }
    return NULL;
}

/* wlan_cfg.c calls this for every 'I' (in the IRQ thread); the MAC status is byte 7. The work
 * goes to the hif workqueue because it sends a 'Q' whose reply this thread must receive. The
 * vif list is read under 6.1's deinit_lock, 6.12's SRCU read lock. */
void wilc_gnrl_async_info_received(struct wilc* wilc, u8* buffer, u32 length)
{
    struct wilc_vif* vif;
#if NICSIM_LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
    int srcu_idx = srcu_read_lock(&wilc->srcu);
#else
    mutex_lock(&wilc->deinit_lock);
#endif

    vif = vif_by_handle(wilc, get_unaligned_le32(&buffer[length - 4]));
    if (vif && vif->hif_drv) {
        if (!vif->hif_drv->conn_info.conn_result)
            netdev_err(vif->ndev, "%s: conn_result is NULL\n", __func__);
        else if (wilc_glue_queue_job(vif, status_received, buffer[7]))
            netdev_err(vif->ndev, "%s: enqueue work failed\n", __func__);
    }
#if NICSIM_LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
    srcu_read_unlock(&wilc->srcu, srcu_idx);
#else
    mutex_unlock(&wilc->deinit_lock);
#endif
}

/* ---- host_if_drv life cycle: the connect timer of the driver's hif init and deinit ----------- */

void wilc_glue_connect_init(struct host_if_drv* hif_drv)
{
    timer_setup(&hif_drv->connect_timer, connect_timer_fired, 0);
}

void wilc_glue_connect_deinit(struct host_if_drv* hif_drv)
{
    del_timer_sync(&hif_drv->connect_timer);
}

/* ---- testbench entry points ------------------------------------------------------------------ */

/* `iw dev wlan0 connect <ssid>` to an open network without extra IEs: the BSSID first (RX from
 * the AP is accepted from now on), then the join. */
int wilc_glue_connect(struct net_device* dev, const struct lx_bus_wilc_bss* bss)
{
    struct wilc_vif* vif = netdev_priv(dev);
    struct wilc_priv* priv = &vif->priv;
    struct host_if_drv* hd = priv->hif_drv;
    struct wilc_conn_info* ci;
    int err;

    if (!hd)
        return -ENODEV;
    ci = &hd->conn_info;
    vif->connecting = true;
    if (ether_addr_equal_unaligned(vif->bssid, bss->bssid)) {
        vif->connecting = false;
        return -EALREADY;
    }
    ci->param = join_param_of(bss);
    if (!ci->param) {
        netdev_err(dev, "%s: failed to construct join param\n", __func__);
        vif->connecting = false;
        return -EINVAL;
    }
    vif->wilc->op_ch = bss->channel;
    wilc_wlan_set_bssid(dev, bss->bssid, WILC_STATION_MODE);
    ci->security = WILC_FW_SEC_NO;
    ci->auth_type = WILC_FW_AUTH_ANY; /* NL80211_AUTHTYPE_AUTOMATIC */
#if NICSIM_LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
    ci->ch = bss->channel;
#endif
    ci->conn_result = on_conn_event;
    CONN_PRIV(ci) = priv;
    ci->mfp_type = WILC_FW_MFP_NONE;

    err = start_join(vif, bss->bssid);
    if (err) {
        netdev_err(dev, "wilc_set_join_req(): Error\n");
        wilc_wlan_set_bssid(dev, NULL, WILC_STATION_MODE);
        ci->conn_result = NULL;
        vif->connecting = false;
        err = -ENOENT;
    }
    kfree(ci->param);
    ci->param = NULL;
    return err;
}

int wilc_glue_connected(struct net_device* dev)
{
    struct wilc_vif* vif = netdev_priv(dev);

    return vif->hif_drv && vif->hif_drv->hif_state == HOST_IF_CONNECTED;
}
