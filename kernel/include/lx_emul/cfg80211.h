/* SPDX-License-Identifier: MIT */
/* net/cfg80211.h subset. cfg80211.c (the wiphy/cfg80211 core user) is not compiled: the
 * wilc1000 glue (kernel/glue/wilc1000/) stands in for it, so only the types embedded in the
 * driver's structures and the handful of wiphy calls netdev.c makes exist here. */
#ifndef LX_EMUL_CFG80211_H
#define LX_EMUL_CFG80211_H

#include <linux/types.h>
#include <linux/device.h>
#include <lx_emul/ieee80211.h>
#include <linux/netdevice.h>

struct net_device;

enum nl80211_iftype {
    NL80211_IFTYPE_UNSPECIFIED,
    NL80211_IFTYPE_ADHOC,
    NL80211_IFTYPE_STATION,
    NL80211_IFTYPE_AP,
    NL80211_IFTYPE_AP_VLAN,
    NL80211_IFTYPE_WDS,
    NL80211_IFTYPE_MONITOR,
    NL80211_IFTYPE_MESH_POINT,
    NL80211_IFTYPE_P2P_CLIENT,
    NL80211_IFTYPE_P2P_GO,
    NL80211_IFTYPE_P2P_DEVICE,
    NL80211_IFTYPE_OCB,
    NL80211_IFTYPE_NAN,
};

enum nl80211_band {
    NL80211_BAND_2GHZ,
    NL80211_BAND_5GHZ,
    NL80211_BAND_60GHZ,
    NL80211_BAND_6GHZ,
    NL80211_BAND_S1GHZ,
    NL80211_BAND_LC,
};

enum nl80211_external_auth_action {
    NL80211_EXTERNAL_AUTH_START,
    NL80211_EXTERNAL_AUTH_ABORT,
};

struct ieee80211_channel {
    enum nl80211_band band;
    u32 center_freq;
    u16 freq_offset;
    u16 hw_value;
    u32 flags;
    int max_antenna_gain;
    int max_power;
    int max_reg_power;
    bool beacon_found;
    u32 orig_flags;
    int orig_mag, orig_mpwr;
};

struct ieee80211_rate {
    u32 flags;
    u16 bitrate;
    u16 hw_value, hw_value_short;
};

struct ieee80211_supported_band {
    struct ieee80211_channel* channels;
    struct ieee80211_rate* bitrates;
    enum nl80211_band band;
    int n_channels;
    int n_bitrates;
};

struct wiphy {
    struct device dev;
    bool registered;
    void* nicsim_priv; /* wiphy_priv() area */
};

static inline void* wiphy_priv(struct wiphy* wiphy) { return wiphy->nicsim_priv; }
static inline struct device* wiphy_dev(struct wiphy* wiphy) { return wiphy->dev.parent; }
static inline void set_wiphy_dev(struct wiphy* wiphy, struct device* dev)
{
    wiphy->dev.parent = dev;
}

struct wireless_dev {
    struct wiphy* wiphy;
    enum nl80211_iftype iftype;
    struct net_device* netdev;
    u32 identifier;
    bool use_4addr;
    u8 address[6];
};

struct cfg80211_ssid {
    u8 ssid[IEEE80211_MAX_SSID_LEN];
    u8 ssid_len;
};

struct cfg80211_external_auth_params {
    enum nl80211_external_auth_action action;
    u8 bssid[6];
    struct cfg80211_ssid ssid;
    unsigned int key_mgmt_suite;
    u16 status;
    const u8* pmkid;
    u8 mld_addr[6];
};

struct mgmt_frame_regs {
    u32 global_stypes, interface_stypes;
    u32 global_mcast_stypes, interface_mcast_stypes;
};

/* Opaque to the compiled files (used through pointers only). */
struct cfg80211_bss;
struct cfg80211_scan_request;
struct cfg80211_beacon_data;
struct cfg80211_crypto_settings;
struct station_parameters;

/* wiphy_new-equivalent used by the glue: wiphy and a zeroed private area in one allocation. */
struct wiphy* lx_emul_wiphy_new(size_t sizeof_priv);
int wiphy_register(struct wiphy* wiphy);
void wiphy_unregister(struct wiphy* wiphy);
void wiphy_free(struct wiphy* wiphy);
int cfg80211_register_netdevice(struct net_device* dev);
void cfg80211_unregister_netdevice(struct net_device* dev);

#endif
