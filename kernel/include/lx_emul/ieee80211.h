/* SPDX-License-Identifier: MIT */
/* linux/ieee80211.h + net/ieee80211_radiotap.h subset: 802.11 constants and frame headers the
 * wilc1000 core and netdev.c use (values from IEEE Std 802.11). */
#ifndef LX_EMUL_IEEE80211_H
#define LX_EMUL_IEEE80211_H

#include <linux/types.h>
#include <linux/etherdevice.h> /* the kernel's linux/ieee80211.h includes it; netdev.c relies on that */

#define IEEE80211_MAX_SSID_LEN 32
#define WLAN_PMKID_LEN 16

#define IEEE80211_FCTL_FTYPE 0x000c
#define IEEE80211_FCTL_STYPE 0x00f0
#define IEEE80211_FTYPE_MGMT 0x0000
#define IEEE80211_FTYPE_CTL 0x0004
#define IEEE80211_FTYPE_DATA 0x0008
#define IEEE80211_STYPE_ASSOC_REQ 0x0000
#define IEEE80211_STYPE_ASSOC_RESP 0x0010
#define IEEE80211_STYPE_PROBE_REQ 0x0040
#define IEEE80211_STYPE_PROBE_RESP 0x0050
#define IEEE80211_STYPE_BEACON 0x0080
#define IEEE80211_STYPE_DISASSOC 0x00A0
#define IEEE80211_STYPE_AUTH 0x00B0
#define IEEE80211_STYPE_DEAUTH 0x00C0
#define IEEE80211_STYPE_ACTION 0x00D0

/* Status codes (IEEE Std 802.11-2016 Table 9-46) the connect glue uses. */
#define WLAN_STATUS_SUCCESS 0
#define WLAN_STATUS_UNSPECIFIED_FAILURE 1

/* Cipher suite selectors (OUI 00-0F-AC). */
#define WLAN_CIPHER_SUITE_USE_GROUP 0x000FAC00
#define WLAN_CIPHER_SUITE_WEP40 0x000FAC01
#define WLAN_CIPHER_SUITE_TKIP 0x000FAC02
#define WLAN_CIPHER_SUITE_CCMP 0x000FAC04
#define WLAN_CIPHER_SUITE_WEP104 0x000FAC05
#define WLAN_CIPHER_SUITE_AES_CMAC 0x000FAC06

struct ieee80211_hdr {
    __le16 frame_control;
    __le16 duration_id;
    u8 addr1[6];
    u8 addr2[6];
    u8 addr3[6];
    __le16 seq_ctrl;
    u8 addr4[6];
} __attribute__((packed));
_Static_assert(sizeof(struct ieee80211_hdr) == 30, "ieee80211_hdr is 30 bytes");

/* Management frame: fixed header; only the auth body is spelled out (netdev.c reads only
 * frame_control; hif.c, which needs the full union, is not compiled). */
struct ieee80211_mgmt {
    __le16 frame_control;
    __le16 duration;
    u8 da[6];
    u8 sa[6];
    u8 bssid[6];
    __le16 seq_ctrl;
    union {
        struct {
            __le16 auth_alg;
            __le16 auth_transaction;
            __le16 status_code;
            u8 variable[];
        } __attribute__((packed)) auth;
    } u;
} __attribute__((packed));

static inline bool ieee80211_is_auth(__le16 fc) {
    return (fc & (__le16)(IEEE80211_FCTL_FTYPE | IEEE80211_FCTL_STYPE)) ==
           (__le16)(IEEE80211_FTYPE_MGMT | IEEE80211_STYPE_AUTH);
}

struct ieee80211_radiotap_header {
    u8 it_version;
    u8 it_pad;
    __le16 it_len;
    __le32 it_present;
} __attribute__((packed));

#endif
