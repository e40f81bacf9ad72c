/* SPDX-License-Identifier: MIT */
/* linux/mii.h + linux/phy.h + linux/of_mdio.h subset. mii_link_ok/mii_check_link carry real
 * logic (ks8851 derives carrier from them); the ethtool/ioctl helpers are never on a data path
 * and are benign stubs. mdiobus_register() performs phylib's clause-22 ID scan (two reads of
 * PHYSID1/PHYSID2 per unmasked address, as get_phy_c22_id does) so the bus traffic of probe
 * matches the kernel; it binds no PHY driver (nicsim has none; the ks8851 link does not use
 * phylib). */
#ifndef LX_EMUL_MII_H
#define LX_EMUL_MII_H

#include <linux/types.h>
#include <linux/device.h>

/* Generic MII registers (include/uapi/linux/mii.h). */
#define MII_BMCR 0x00
#define MII_BMSR 0x01
#define MII_PHYSID1 0x02
#define MII_PHYSID2 0x03
#define MII_ADVERTISE 0x04
#define MII_LPA 0x05
#define MII_EXPANSION 0x06
#define MII_CTRL1000 0x09
#define MII_STAT1000 0x0a

#define BMCR_RESV 0x003f
#define BMCR_SPEED1000 0x0040
#define BMCR_CTST 0x0080
#define BMCR_FULLDPLX 0x0100
#define BMCR_ANRESTART 0x0200
#define BMCR_ISOLATE 0x0400
#define BMCR_PDOWN 0x0800
#define BMCR_ANENABLE 0x1000
#define BMCR_SPEED100 0x2000
#define BMCR_LOOPBACK 0x4000
#define BMCR_RESET 0x8000

#define BMSR_ERCAP 0x0001
#define BMSR_JCD 0x0002
#define BMSR_LSTATUS 0x0004
#define BMSR_ANEGCAPABLE 0x0008
#define BMSR_RFAULT 0x0010
#define BMSR_ANEGCOMPLETE 0x0020
#define BMSR_10HALF 0x0800
#define BMSR_10FULL 0x1000
#define BMSR_100HALF 0x2000
#define BMSR_100FULL 0x4000

#define ADVERTISE_CSMA 0x0001
#define ADVERTISE_10HALF 0x0020
#define ADVERTISE_10FULL 0x0040
#define ADVERTISE_100HALF 0x0080
#define ADVERTISE_100FULL 0x0100
#define ADVERTISE_PAUSE_CAP 0x0400
#define ADVERTISE_PAUSE_ASYM 0x0800

#define LPA_10HALF 0x0020
#define LPA_10FULL 0x0040
#define LPA_100HALF 0x0080
#define LPA_100FULL 0x0100
#define LPA_LPACK 0x4000

struct net_device;
struct ifreq;
struct ethtool_link_ksettings;

struct mii_if_info {
    int phy_id;
    int advertising;
    int phy_id_mask;
    int reg_num_mask;
    unsigned int full_duplex : 1;
    unsigned int force_media : 1;
    unsigned int supports_gmii : 1;
    struct net_device* dev;
    int (*mdio_read)(struct net_device* dev, int phy_id, int location);
    void (*mdio_write)(struct net_device* dev, int phy_id, int location, int val);
};

struct mii_ioctl_data {
    __u16 phy_id;
    __u16 reg_num;
    __u16 val_in;
    __u16 val_out;
};

static inline struct mii_ioctl_data* if_mii(struct ifreq* rq) { return (struct mii_ioctl_data*)rq; }

int mii_link_ok(struct mii_if_info* mii);
unsigned int mii_check_link(struct mii_if_info* mii);
int mii_nway_restart(struct mii_if_info* mii);
void mii_ethtool_get_link_ksettings(struct mii_if_info* mii, struct ethtool_link_ksettings* cmd);
int mii_ethtool_set_link_ksettings(struct mii_if_info* mii,
                                   const struct ethtool_link_ksettings* cmd);
int generic_mii_ioctl(struct mii_if_info* mii_if, struct mii_ioctl_data* mii_data, int cmd,
                      unsigned int* duplex_changed);

/* phylib: only the bus object ks8851 registers. */
#define MII_BUS_ID_SIZE 61
#define PHY_MAX_ADDR 32

struct mii_bus {
    const char* name;
    char id[MII_BUS_ID_SIZE];
    void* priv;
    int (*read)(struct mii_bus* bus, int addr, int regnum);
    int (*write)(struct mii_bus* bus, int addr, int regnum, u16 val);
    struct device* parent;
    u32 phy_mask;
    u32 phy_ignore_ta_mask;
    u32 nicsim_phy_id[PHY_MAX_ADDR]; /* IDs found by the scan (0xffffffff = none) */
    bool nicsim_registered;
};

/* lx_emul_ names under the kernel's (macros): the emulation on the real headers defines the
 * kernel names for its struct mii_bus (kernel/lx_emul_real/mdio.c), and one link may hold both. */
struct mii_bus* lx_emul_mdiobus_alloc(void);
void lx_emul_mdiobus_free(struct mii_bus* bus);
int lx_emul_mdiobus_register(struct mii_bus* bus);
void lx_emul_mdiobus_unregister(struct mii_bus* bus);
#define mdiobus_alloc lx_emul_mdiobus_alloc
#define mdiobus_free lx_emul_mdiobus_free
#define mdiobus_register lx_emul_mdiobus_register
#define mdiobus_unregister lx_emul_mdiobus_unregister

#endif
