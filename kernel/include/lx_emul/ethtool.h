/* SPDX-License-Identifier: MIT */
/* linux/ethtool.h subset: the ops table and the structures ks8851's and enc28j60's ethtool
 * callbacks fill. Nothing in nicsim calls ethtool; the types only need to hold what the driver
 * writes. */
#ifndef LX_EMUL_ETHTOOL_H
#define LX_EMUL_ETHTOOL_H

#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/string.h>

struct net_device;

#define ETHTOOL_FWVERS_LEN 32
#define ETHTOOL_BUSINFO_LEN 32

struct ethtool_drvinfo {
    __u32 cmd;
    char driver[32];
    char version[32];
    char fw_version[ETHTOOL_FWVERS_LEN];
    char bus_info[ETHTOOL_BUSINFO_LEN];
    char erom_version[ETHTOOL_FWVERS_LEN];
    char reserved2[12];
    __u32 n_priv_flags;
    __u32 n_stats;
    __u32 testinfo_len;
    __u32 eedump_len;
    __u32 regdump_len;
};

struct ethtool_eeprom {
    __u32 cmd;
    __u32 magic;
    __u32 offset;
    __u32 len;
    __u8 data[];
};

struct ethtool_link_settings {
    __u32 cmd;
    __u32 speed;
    __u8 duplex;
    __u8 port;
    __u8 phy_address;
    __u8 autoneg;
    __u8 mdio_support;
    __u8 eth_tp_mdix;
    __u8 eth_tp_mdix_ctrl;
    __s8 link_mode_masks_nwords;
    __u8 transceiver;
    __u8 master_slave_cfg;
    __u8 master_slave_state;
    __u8 rate_matching;
    __u32 reserved[7];
};

struct ethtool_link_ksettings {
    struct ethtool_link_settings base;
    struct {
        unsigned long supported[2];
        unsigned long advertising[2];
        unsigned long lp_advertising[2];
    } link_modes;
    u32 lanes;
};

/* include/uapi/linux/ethtool.h values the drivers write into ethtool_link_settings. */
#define SPEED_10 10
#define SPEED_100 100
#define SPEED_1000 1000
#define SPEED_UNKNOWN -1
#define DUPLEX_HALF 0x00
#define DUPLEX_FULL 0x01
#define DUPLEX_UNKNOWN 0xff
#define PORT_TP 0x00
#define PORT_AUI 0x01
#define PORT_MII 0x02
#define PORT_FIBRE 0x03
#define PORT_BNC 0x04
#define AUTONEG_DISABLE 0x00
#define AUTONEG_ENABLE 0x01

/* enum ethtool_link_mode_bit_indices (uapi), the first entries; same bit numbers. */
enum ethtool_link_mode_bit_indices {
    ETHTOOL_LINK_MODE_10baseT_Half_BIT = 0,
    ETHTOOL_LINK_MODE_10baseT_Full_BIT = 1,
    ETHTOOL_LINK_MODE_100baseT_Half_BIT = 2,
    ETHTOOL_LINK_MODE_100baseT_Full_BIT = 3,
    ETHTOOL_LINK_MODE_1000baseT_Half_BIT = 4,
    ETHTOOL_LINK_MODE_1000baseT_Full_BIT = 5,
    ETHTOOL_LINK_MODE_Autoneg_BIT = 6,
    ETHTOOL_LINK_MODE_TP_BIT = 7,
    ETHTOOL_LINK_MODE_AUI_BIT = 8,
    ETHTOOL_LINK_MODE_MII_BIT = 9,
    ETHTOOL_LINK_MODE_FIBRE_BIT = 10,
    ETHTOOL_LINK_MODE_BNC_BIT = 11,
};

/* include/linux/ethtool.h: the link-mode bitmaps of ethtool_link_ksettings. */
#define ethtool_link_ksettings_zero_link_mode(ptr, name)                                           \
    memset((ptr)->link_modes.name, 0, sizeof((ptr)->link_modes.name))
#define ethtool_link_ksettings_add_link_mode(ptr, name, mode)                                      \
    __set_bit(ETHTOOL_LINK_MODE_##mode##_BIT, (ptr)->link_modes.name)
#define ethtool_link_ksettings_test_link_mode(ptr, name, mode)                                     \
    test_bit(ETHTOOL_LINK_MODE_##mode##_BIT, (ptr)->link_modes.name)

struct ethtool_ops {
    void (*get_drvinfo)(struct net_device*, struct ethtool_drvinfo*);
    u32 (*get_msglevel)(struct net_device*);
    void (*set_msglevel)(struct net_device*, u32);
    u32 (*get_link)(struct net_device*);
    int (*nway_reset)(struct net_device*);
    int (*get_eeprom_len)(struct net_device*);
    int (*get_eeprom)(struct net_device*, struct ethtool_eeprom*, u8*);
    int (*set_eeprom)(struct net_device*, struct ethtool_eeprom*, u8*);
    int (*get_link_ksettings)(struct net_device*, struct ethtool_link_ksettings*);
    int (*set_link_ksettings)(struct net_device*, const struct ethtool_link_ksettings*);
};

u32 ethtool_op_get_link(struct net_device* dev);

#endif
