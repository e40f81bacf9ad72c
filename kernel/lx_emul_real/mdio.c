// SPDX-License-Identifier: MIT
/* lx_emul_real: the MDIO bus a MAC driver registers for its PHY. Registering runs phylib's
 * clause-22 ID scan through the driver's read op (lx_emul/shared.h, the same reads as on the
 * shadow headers); a PHY found is only recorded, beside the bus: nicsim has no phylib driver to
 * bind. The bus memory is kernel memory (lx_emul's), its private area after it as in
 * mdiobus_alloc_size. */
#include <linux/netdevice.h>
#include <linux/phy.h>
#include <linux/slab.h>

#include <lx_emul/shared.h>

#include "internal.h"

struct mdio_state {
    uint32_t phy_id[PHY_MAX_ADDR];
};

struct mii_bus *mdiobus_alloc_size(size_t size)
{
    size_t aligned = ALIGN(sizeof(struct mii_bus), NETDEV_ALIGN);
    struct mii_bus *bus = lx_emul_alloc(aligned + size, 1, "mdiobus_alloc", "lx_emul_bus");
    if (!bus)
        return NULL;
    if (size)
        bus->priv = (char *)bus + aligned;
    bus->state = MDIOBUS_ALLOCATED;
    return bus;
}

static int bus_read(void *bus, int addr, int reg)
{
    struct mii_bus *b = bus;
    return b->read(b, addr, reg);
}

int __mdiobus_register(struct mii_bus *bus, struct module *owner)
{
    (void)owner;
    if (!bus->read || !bus->write)
        return -EINVAL;
    struct mdio_state *st = lx_real_side(bus, sizeof(*st));
    lx_emul_mdio_scan(bus, bus_read, bus->phy_mask, st->phy_id);
    bus->state = MDIOBUS_REGISTERED;
    return 0;
}

void mdiobus_unregister(struct mii_bus *bus)
{
    bus->state = MDIOBUS_UNREGISTERED;
}

void mdiobus_free(struct mii_bus *bus)
{
    if (bus && bus->state == MDIOBUS_REGISTERED)
        lx_kit_abort("mdiobus_free(%s): bus still registered", bus->id);
    kfree(bus);
}
