/* SPDX-License-Identifier: MIT */
/* linux/ethtool.h subset: the ops table and the structures ks8851's ethtool callbacks fill.
 * Nothing in nicsim calls ethtool; the types only need to hold what the driver writes. */
#ifndef LX_EMUL_ETHTOOL_H
#define LX_EMUL_ETHTOOL_H

#include <linux/types.h>

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
