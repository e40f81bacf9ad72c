// SPDX-License-Identifier: MIT
/* Legacy MII helpers (drivers/net/mii.c semantics, own code), phylib's bus registration scan,
 * and the ks8851 side devices the docs call safe to stub: EEPROM, regulators, ethtool link. */
#include <linux/kernel.h>
#include <linux/mii.h>
#include <linux/netdevice.h>
#include <linux/ethtool.h>
#include <linux/eeprom_93cx6.h>
#include <linux/regulator/consumer.h>
#include <linux/slab.h>
#include <linux/errno.h>

#include <lx_emul/shared.h>
#include <lx_kit/lx_kit.h>

/* BMSR's link status is latched low: read twice, the second read is the current state. */
int mii_link_ok(struct mii_if_info* mii)
{
    mii->mdio_read(mii->dev, mii->phy_id, MII_BMSR);
    return (mii->mdio_read(mii->dev, mii->phy_id, MII_BMSR) & BMSR_LSTATUS) ? 1 : 0;
}

/* Carrier follows the PHY link; returns 1 when the carrier state changed. */
unsigned int mii_check_link(struct mii_if_info* mii)
{
    int cur_link = mii_link_ok(mii);
    int prev_link = netif_carrier_ok(mii->dev);

    if (cur_link && !prev_link) {
        netif_carrier_on(mii->dev);
        return 1;
    }
    if (prev_link && !cur_link) {
        netif_carrier_off(mii->dev);
        return 1;
    }
    return 0;
}

/* Restart autonegotiation if it is enabled (BMCR.ANENABLE), as mii.c does. */
int mii_nway_restart(struct mii_if_info* mii)
{
    int bmcr = mii->mdio_read(mii->dev, mii->phy_id, MII_BMCR);
    if (!(bmcr & BMCR_ANENABLE))
        return -EINVAL;
    mii->mdio_write(mii->dev, mii->phy_id, MII_BMCR, bmcr | BMCR_ANRESTART);
    return 0;
}

/* ethtool link settings are not modelled: report "unknown" (all zero). */
void mii_ethtool_get_link_ksettings(struct mii_if_info* mii, struct ethtool_link_ksettings* cmd)
{
    memset(cmd, 0, sizeof(*cmd));
}

int mii_ethtool_set_link_ksettings(struct mii_if_info* mii,
                                   const struct ethtool_link_ksettings* cmd)
{
    return -EOPNOTSUPP;
}

int generic_mii_ioctl(struct mii_if_info* mii_if, struct mii_ioctl_data* mii_data, int cmd,
                      unsigned int* duplex_changed)
{
    return -EOPNOTSUPP;
}

u32 ethtool_op_get_link(struct net_device* dev) { return netif_carrier_ok(dev) ? 1 : 0; }

/* ---- phylib bus ----------------------------------------------------------------------------- */

struct mii_bus* mdiobus_alloc(void) { return kzalloc(sizeof(struct mii_bus), GFP_KERNEL); }

void mdiobus_free(struct mii_bus* bus)
{
    if (bus && bus->nicsim_registered)
        lx_kit_abort("mdiobus_free(%s): bus still registered", bus->id);
    kfree(bus);
}

static int bus_read(void* bus, int addr, int reg)
{
    struct mii_bus* b = bus;
    return b->read(b, addr, reg);
}

/* __mdiobus_register: the clause-22 ID scan (lx_emul_mdio_scan). */
int mdiobus_register(struct mii_bus* bus)
{
    if (!bus->read || !bus->write)
        return -EINVAL;
    lx_emul_mdio_scan(bus, bus_read, bus->phy_mask, bus->nicsim_phy_id);
    bus->nicsim_registered = true;
    return 0;
}

void mdiobus_unregister(struct mii_bus* bus) { bus->nicsim_registered = false; }

/* ---- 93Cx6 EEPROM: a blank part ------------------------------------------------------------- */

void eeprom_93cx6_read(struct eeprom_93cx6* eeprom, const u8 word, u16* data) { *data = 0xffff; }

void eeprom_93cx6_multiread(struct eeprom_93cx6* eeprom, const u8 word, __le16* data,
                            const u16 words)
{
    for (u16 i = 0; i < words; i++)
        data[i] = 0xffff;
}

void eeprom_93cx6_wren(struct eeprom_93cx6* eeprom, bool enable) {}
void eeprom_93cx6_write(struct eeprom_93cx6* eeprom, u8 addr, u16 data) {}

/* ---- regulators: the kernel's dummy regulator, with an enable count ------------------------- */

struct regulator {
    int enable_count;
};

struct regulator* devm_regulator_get(struct device* dev, const char* id)
{
    struct regulator* r = kzalloc(sizeof(*r), GFP_KERNEL);
    return r ? r : ERR_PTR(-ENOMEM);
}

int regulator_enable(struct regulator* r)
{
    r->enable_count++;
    return 0;
}

int regulator_disable(struct regulator* r)
{
    if (r->enable_count <= 0)
        lx_kit_abort("regulator_disable: unbalanced disable");
    r->enable_count--;
    return 0;
}
