// SPDX-License-Identifier: MIT
/* Stand-in for the station connect path of wilc1000's cfg80211.c (connect, cfg_connect_result)
 * and hif.c (wilc_set_join_req, wilc_send_connect_wid, the connect timer, the 'I' status
 * handling). Neither file is compiled (hif.c needs ~35 cfg80211 definitions and brings the 5 s
 * statistics WIDs; cfg80211.c needs the cfg80211 core), so this file follows each kernel's code
 * step by step: the same WIDs in the same order, types and sizes, the same
 * struct wilc_join_bss_param, the same work items on the driver's hif workqueue, the same 9.5 s
 * connect timer. What differs (docs/models/wilc1000.md "Connect sequence"):
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

#define WILC_HIF_CONNECT_TIMEOUT_MS 9500 /* hif.c */

/* 6.12 renamed conn_info.arg to .priv and typed the callback's argument. */
#if NICSIM_LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
typedef struct wilc_priv* conn_priv_t;
#define CONN_PRIV(ci) ((ci)->priv)
#else
typedef void* conn_priv_t;
#define CONN_PRIV(ci) ((ci)->arg)
#endif

/* hif.c's work item, reduced to the one body the connect path uses. */
struct connect_msg {
    struct wilc_vif* vif;
    u8 mac_status;
    struct work_struct work;
};

static int enqueue(struct wilc_vif* vif, work_func_t fn, u8 mac_status)
{
    struct connect_msg* msg = kzalloc(sizeof(*msg), GFP_ATOMIC);

    if (!msg)
        return -ENOMEM;
    msg->vif = vif;
    msg->mac_status = mac_status;
    INIT_WORK(&msg->work, fn);
    if (!vif->wilc->hif_workqueue || !queue_work(vif->wilc->hif_workqueue, &msg->work)) {
        kfree(msg);
        return -EINVAL;
    }
    return 0;
}

/* ---- cfg80211.c ------------------------------------------------------------------------------ */

/* cfg_connect_result: a failed connect clears the BSSID connect() set; a disconnect too. */
static void connect_result(enum conn_event evt, u8 mac_status, conn_priv_t priv_data)
{
    struct wilc_priv* priv = priv_data;
    struct net_device* dev = priv->dev;
    struct wilc_vif* vif = netdev_priv(dev);
    struct wilc_conn_info* conn_info = &priv->hif_drv->conn_info;

    vif->connecting = false;
    if (evt == CONN_DISCONN_EVENT_CONN_RESP) {
        u16 connect_status = conn_info->status;

        if (mac_status == WILC_MAC_STATUS_DISCONNECTED && connect_status == WLAN_STATUS_SUCCESS) {
            connect_status = WLAN_STATUS_UNSPECIFIED_FAILURE;
            wilc_wlan_set_bssid(priv->dev, NULL, WILC_STATION_MODE);
            netdev_err(dev, "Unspecified failure\n");
        }
        if (connect_status == WLAN_STATUS_SUCCESS)
            memcpy(priv->associated_bss, conn_info->bssid, ETH_ALEN);
        /* cfg80211_connect_bss: no cfg80211 to tell. */
        netdev_dbg(dev, "connect result: status %u to %pM\n", connect_status, conn_info->bssid);
    } else if (evt == CONN_DISCONN_EVENT_DISCONN_NOTIF) {
        eth_zero_addr(priv->associated_bss);
        wilc_wlan_set_bssid(priv->dev, NULL, WILC_STATION_MODE);
        netdev_dbg(dev, "disconnected\n"); /* cfg80211_disconnected */
    }
}

/* wilc_parse_join_bss_param for an open BSS: the fields it fills from the BSS and its beacon
 * IEs (SSID, TIM, Supported/Extended Supported Rates, HT Capabilities, WMM); no WPA/RSN element
 * and no P2P NoA, so the suites stay 0xFF and the NoA fields 0. */
static struct wilc_join_bss_param* join_param_of(const struct lx_bus_wilc_bss* bss)
{
    struct wilc_join_bss_param* param = kzalloc(sizeof(*param), GFP_KERNEL);
    u8 n_rates;

    if (!param)
        return NULL;
    param->beacon_period = cpu_to_le16(bss->beacon_interval);
    param->cap_info = cpu_to_le16(bss->capability);
    param->bss_type = WILC_FW_BSS_TYPE_INFRA;
    param->ch = bss->channel;
    ether_addr_copy(param->bssid, bss->bssid);
    if (bss->ssid_len <= IEEE80211_MAX_SSID_LEN)
        memcpy(param->ssid, bss->ssid, bss->ssid_len);
    param->dtim_period = bss->dtim_period;
    memset(param->p_suites, 0xFF, 3);
    memset(param->akm_suites, 0xFF, 3);
    /* Supported Rates then Extended Supported Rates, capped at WILC_MAX_RATES_SUPPORTED. */
    n_rates = min_t(u8, bss->n_rates, WILC_MAX_RATES_SUPPORTED);
    param->supp_rates[0] = n_rates;
    memcpy(&param->supp_rates[1], bss->rates, n_rates);
    param->ht_capable = bss->ht != 0;
    param->wmm_cap = bss->wmm != 0;
    param->uapsd_cap = bss->wmm && bss->uapsd;
    return param;
}

/* ---- hif.c ----------------------------------------------------------------------------------- */

static int wilc_send_connect_wid(struct wilc_vif* vif)
{
    int result = 0;
    struct wid wid_list[5];
    u32 wid_cnt = 0;
    struct host_if_drv* hif_drv = vif->hif_drv;
    struct wilc_conn_info* conn_attr = &hif_drv->conn_info;
    struct wilc_join_bss_param* bss_param = conn_attr->param;

    wid_list[wid_cnt].id = WID_SET_MFP;
    wid_list[wid_cnt].type = WID_CHAR;
    wid_list[wid_cnt].size = sizeof(char);
    wid_list[wid_cnt].val = (s8*)&conn_attr->mfp_type;
    wid_cnt++;

    wid_list[wid_cnt].id = WID_INFO_ELEMENT_ASSOCIATE;
    wid_list[wid_cnt].type = WID_BIN_DATA;
    wid_list[wid_cnt].val = conn_attr->req_ies;
    wid_list[wid_cnt].size = conn_attr->req_ies_len;
    wid_cnt++;

    wid_list[wid_cnt].id = WID_11I_MODE;
    wid_list[wid_cnt].type = WID_CHAR;
    wid_list[wid_cnt].size = sizeof(char);
    wid_list[wid_cnt].val = (s8*)&conn_attr->security;
    wid_cnt++;

    wid_list[wid_cnt].id = WID_AUTH_TYPE;
    wid_list[wid_cnt].type = WID_CHAR;
    wid_list[wid_cnt].size = sizeof(char);
    wid_list[wid_cnt].val = (s8*)&conn_attr->auth_type;
    wid_cnt++;

    wid_list[wid_cnt].id = WID_JOIN_REQ_EXTENDED;
    wid_list[wid_cnt].type = WID_STR;
    wid_list[wid_cnt].size = sizeof(*bss_param);
    wid_list[wid_cnt].val = (u8*)bss_param;
    wid_cnt++;

    result = wilc_send_config_pkt(vif, WILC_SET_CFG, wid_list, wid_cnt);
    if (result) {
        netdev_err(vif->ndev, "failed to send config packet\n");
        kfree(conn_attr->req_ies);
        conn_attr->req_ies = NULL;
        return result;
    }
    if (conn_attr->auth_type == WILC_FW_AUTH_SAE)
        hif_drv->hif_state = HOST_IF_EXTERNAL_AUTH;
    else
        hif_drv->hif_state = HOST_IF_WAITING_CONN_RESP;
    return 0;
}

int wilc_set_join_req(struct wilc_vif* vif, u8* bssid, const u8* ies, size_t ies_len)
{
    struct host_if_drv* hif_drv = vif->hif_drv;
    struct wilc_conn_info* conn_info = &hif_drv->conn_info;
    int result;

    if (bssid)
        ether_addr_copy(conn_info->bssid, bssid);
    if (ies) {
        conn_info->req_ies_len = ies_len;
        conn_info->req_ies = kmemdup(ies, ies_len, GFP_KERNEL);
        if (!conn_info->req_ies)
            return -ENOMEM;
    }
    result = wilc_send_connect_wid(vif);
    if (result)
        goto free_ies;
    hif_drv->connect_timer_vif = vif;
    mod_timer(&hif_drv->connect_timer, jiffies + msecs_to_jiffies(WILC_HIF_CONNECT_TIMEOUT_MS));
    return 0;

free_ies:
    kfree(conn_info->req_ies);
    return result;
}

static void handle_connect_timeout(struct work_struct* work)
{
    struct connect_msg* msg = container_of(work, struct connect_msg, work);
    struct wilc_vif* vif = msg->vif;
    struct host_if_drv* hif_drv = vif->hif_drv;
    u16 dummy_reason_code = 0;
    struct wid wid;

    if (!hif_drv) {
        netdev_err(vif->ndev, "%s: hif driver is NULL\n", __func__);
        goto out;
    }
    hif_drv->hif_state = HOST_IF_IDLE;
    if (hif_drv->conn_info.conn_result)
        hif_drv->conn_info.conn_result(CONN_DISCONN_EVENT_CONN_RESP, WILC_MAC_STATUS_DISCONNECTED,
                                       CONN_PRIV(&hif_drv->conn_info));
    else
        netdev_err(vif->ndev, "%s: conn_result is NULL\n", __func__);

    wid.id = WID_DISCONNECT;
    wid.type = WID_CHAR;
    wid.val = (s8*)&dummy_reason_code;
    wid.size = sizeof(char);
    if (wilc_send_config_pkt(vif, WILC_SET_CFG, &wid, 1))
        netdev_err(vif->ndev, "Failed to send disconnect\n");

    hif_drv->conn_info.req_ies_len = 0;
    kfree(hif_drv->conn_info.req_ies);
    hif_drv->conn_info.req_ies = NULL;
out:
    kfree(msg);
}

static void timer_connect_cb(struct timer_list* t)
{
    struct host_if_drv* hif_drv = from_timer(hif_drv, t, connect_timer);

    enqueue(hif_drv->connect_timer_vif, handle_connect_timeout, 0);
}

static void host_int_get_assoc_res_info(struct wilc_vif* vif, u8* assoc_resp_info,
                                        u32 max_assoc_resp_info_len, u32* rcvd_assoc_resp_info_len)
{
    struct wid wid;

    wid.id = WID_ASSOC_RES_INFO;
    wid.type = WID_STR;
    wid.val = assoc_resp_info;
    wid.size = max_assoc_resp_info_len;
    if (wilc_send_config_pkt(vif, WILC_GET_CFG, &wid, 1)) {
        *rcvd_assoc_resp_info_len = 0;
        netdev_err(vif->ndev, "Failed to send association response\n");
        return;
    }
    *rcvd_assoc_resp_info_len = wid.size;
}

static s32 wilc_parse_assoc_resp_info(u8* buffer, u32 buffer_len,
                                      struct wilc_conn_info* ret_conn_info)
{
    struct wilc_assoc_resp* res = (struct wilc_assoc_resp*)buffer;

    if (buffer_len < sizeof(*res)) {
        ret_conn_info->status = WLAN_STATUS_UNSPECIFIED_FAILURE;
        return -EINVAL;
    }
    ret_conn_info->status = le16_to_cpu(res->status_code);
    if (ret_conn_info->status == WLAN_STATUS_SUCCESS) {
        u16 ies_len = buffer_len - sizeof(*res);

        ret_conn_info->resp_ies = kmemdup(&buffer[sizeof(*res)], ies_len, GFP_KERNEL);
        if (!ret_conn_info->resp_ies)
            return -ENOMEM;
        ret_conn_info->resp_ies_len = ies_len;
    }
    return 0;
}

static void host_int_parse_assoc_resp_info(struct wilc_vif* vif, u8 mac_status)
{
    struct host_if_drv* hif_drv = vif->hif_drv;
    struct wilc_conn_info* conn_info = &hif_drv->conn_info;

    if (mac_status == WILC_MAC_STATUS_CONNECTED) {
        u32 assoc_resp_info_len;

        memset(hif_drv->assoc_resp, 0, WILC_MAX_ASSOC_RESP_FRAME_SIZE);
        host_int_get_assoc_res_info(vif, hif_drv->assoc_resp, WILC_MAX_ASSOC_RESP_FRAME_SIZE,
                                    &assoc_resp_info_len);
        if (assoc_resp_info_len != 0) {
            s32 err =
                wilc_parse_assoc_resp_info(hif_drv->assoc_resp, assoc_resp_info_len, conn_info);
            if (err)
                netdev_err(vif->ndev, "wilc_parse_assoc_resp_info() returned error %d\n", err);
        }
    }

    del_timer(&hif_drv->connect_timer);
    conn_info->conn_result(CONN_DISCONN_EVENT_CONN_RESP, mac_status, CONN_PRIV(conn_info));

    if (mac_status == WILC_MAC_STATUS_CONNECTED && conn_info->status == WLAN_STATUS_SUCCESS) {
        ether_addr_copy(hif_drv->assoc_bssid, conn_info->bssid);
        hif_drv->hif_state = HOST_IF_CONNECTED;
    } else {
        hif_drv->hif_state = HOST_IF_IDLE;
    }

    kfree(conn_info->resp_ies);
    conn_info->resp_ies = NULL;
    conn_info->resp_ies_len = 0;
    kfree(conn_info->req_ies);
    conn_info->req_ies = NULL;
    conn_info->req_ies_len = 0;
}

/* hif.c, without the scan-abort branches (no scan runs). */
void wilc_handle_disconnect(struct wilc_vif* vif)
{
    struct host_if_drv* hif_drv = vif->hif_drv;

    if (hif_drv->conn_info.conn_result)
        hif_drv->conn_info.conn_result(CONN_DISCONN_EVENT_DISCONN_NOTIF, 0,
                                       CONN_PRIV(&hif_drv->conn_info));
    eth_zero_addr(hif_drv->assoc_bssid);
    hif_drv->conn_info.req_ies_len = 0;
    kfree(hif_drv->conn_info.req_ies);
    hif_drv->conn_info.req_ies = NULL;
    hif_drv->hif_state = HOST_IF_IDLE;
}

/* The work item the 'I' status message queues (SAE's external-auth branch kept for fidelity;
 * the open connect never takes it). */
static void handle_rcvd_gnrl_async_info(struct work_struct* work)
{
    struct connect_msg* msg = container_of(work, struct connect_msg, work);
    struct wilc_vif* vif = msg->vif;
    struct host_if_drv* hif_drv = vif->hif_drv;

    if (!hif_drv) {
        netdev_err(vif->ndev, "%s: hif driver is NULL\n", __func__);
        goto free_msg;
    }
    if (!hif_drv->conn_info.conn_result) {
        netdev_err(vif->ndev, "%s: conn_result is NULL\n", __func__);
        goto free_msg;
    }
    if (hif_drv->hif_state == HOST_IF_EXTERNAL_AUTH) {
        hif_drv->hif_state = HOST_IF_WAITING_CONN_RESP; /* cfg80211_external_auth_request */
    } else if (hif_drv->hif_state == HOST_IF_WAITING_CONN_RESP) {
        host_int_parse_assoc_resp_info(vif, msg->mac_status);
    } else if (msg->mac_status == WILC_MAC_STATUS_DISCONNECTED &&
               hif_drv->hif_state == HOST_IF_CONNECTED) {
        wilc_handle_disconnect(vif);
    }
free_msg:
    kfree(msg);
}

/* hif.c's wilc_get_vif_from_idx (static there). */
static struct wilc_vif* vif_from_idx(struct wilc* wilc, int idx)
{
    int index = idx - 1;
    struct wilc_vif* vif;

    if (index < 0 || index >= WILC_NUM_CONCURRENT_IFC)
        return NULL;
    list_for_each_entry_rcu(vif, &wilc->vif_list, list)
    {
        if (vif->idx == index)
            return vif;
    }
    return NULL;
}

/* Called by wlan_cfg.c for every 'I' message (in the IRQ thread): the vif is named by the last
 * 4 bytes, the MAC status is byte 7. The handling runs on the hif workqueue, since it sends a
 * 'Q' whose reply this thread must receive. 6.1 holds deinit_lock, 6.12 an SRCU read lock. */
void wilc_gnrl_async_info_received(struct wilc* wilc, u8* buffer, u32 length)
{
    struct host_if_drv* hif_drv;
    struct wilc_vif* vif;
    int id;
#if NICSIM_LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
    int srcu_idx = srcu_read_lock(&wilc->srcu);
#else
    mutex_lock(&wilc->deinit_lock);
#endif

    id = get_unaligned_le32(&buffer[length - 4]);
    vif = vif_from_idx(wilc, id);
    if (!vif)
        goto out;
    hif_drv = vif->hif_drv;
    if (!hif_drv)
        goto out;
    if (!hif_drv->conn_info.conn_result) {
        netdev_err(vif->ndev, "%s: conn_result is NULL\n", __func__);
        goto out;
    }
    if (enqueue(vif, handle_rcvd_gnrl_async_info, buffer[7]))
        netdev_err(vif->ndev, "%s: enqueue work failed\n", __func__);
out:
#if NICSIM_LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
    srcu_read_unlock(&wilc->srcu, srcu_idx);
#else
    mutex_unlock(&wilc->deinit_lock);
#endif
}

/* ---- host_if_drv life cycle (hif.c's wilc_init / wilc_deinit, connect timer only) ------------ */

void wilc_glue_connect_init(struct host_if_drv* hif_drv)
{
    timer_setup(&hif_drv->connect_timer, timer_connect_cb, 0);
}

void wilc_glue_connect_deinit(struct host_if_drv* hif_drv)
{
    del_timer_sync(&hif_drv->connect_timer);
}

/* ---- testbench entry points ------------------------------------------------------------------ */

/* cfg80211.c's connect() for an open network without extra IEs. */
int wilc_glue_connect(struct net_device* dev, const struct lx_bus_wilc_bss* bss)
{
    struct wilc_vif* vif = netdev_priv(dev);
    struct wilc_priv* priv = &vif->priv;
    struct host_if_drv* wfi_drv = priv->hif_drv;
    struct wilc_join_bss_param* join_params;
    int ret;

    if (!wfi_drv)
        return -ENODEV;
    vif->connecting = true;
    if (ether_addr_equal_unaligned(vif->bssid, bss->bssid)) {
        ret = -EALREADY;
        goto out_error;
    }
    join_params = join_param_of(bss);
    if (!join_params) {
        netdev_err(dev, "%s: failed to construct join param\n", __func__);
        ret = -EINVAL;
        goto out_error;
    }
    vif->wilc->op_ch = bss->channel;
    wilc_wlan_set_bssid(dev, bss->bssid, WILC_STATION_MODE);

    wfi_drv->conn_info.security = WILC_FW_SEC_NO;
    wfi_drv->conn_info.auth_type = WILC_FW_AUTH_ANY; /* NL80211_AUTHTYPE_AUTOMATIC */
#if NICSIM_LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
    wfi_drv->conn_info.ch = bss->channel;
#endif
    wfi_drv->conn_info.conn_result = connect_result;
    CONN_PRIV(&wfi_drv->conn_info) = priv;
    wfi_drv->conn_info.param = join_params;
    wfi_drv->conn_info.mfp_type = WILC_FW_MFP_NONE;

    ret = wilc_set_join_req(vif, (u8*)bss->bssid, NULL, 0); /* no extra IEs */
    if (ret) {
        netdev_err(dev, "wilc_set_join_req(): Error\n");
        ret = -ENOENT;
        wilc_wlan_set_bssid(dev, NULL, WILC_STATION_MODE);
        wfi_drv->conn_info.conn_result = NULL;
    }
    kfree(join_params);
    if (!ret)
        return 0;
out_error:
    vif->connecting = false;
    return ret;
}

int wilc_glue_connected(struct net_device* dev)
{
    struct wilc_vif* vif = netdev_priv(dev);

    return vif->hif_drv && vif->hif_drv->hif_state == HOST_IF_CONNECTED;
}
