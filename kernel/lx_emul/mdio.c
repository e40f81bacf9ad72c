// SPDX-License-Identifier: MIT
/* lx_emul: phylib's clause-22 ID scan (lx_emul/shared.h), for the MDIO buses of both header
 * sets. */
#include <lx_emul/shared.h>

enum { PHY_ADDRS = 32, REG_PHYSID1 = 2, REG_PHYSID2 = 3 }; /* include/uapi/linux/mii.h */

void lx_emul_mdio_scan(void* bus, int (*read)(void* bus, int addr, int reg), uint32_t phy_mask,
                       uint32_t ids[32])
{
    for (int addr = 0; addr < PHY_ADDRS; addr++) {
        int id1, id2;
        ids[addr] = 0xffffffffu;
        if (phy_mask & (1u << addr))
            continue;
        id1 = read(bus, addr, REG_PHYSID1);
        if (id1 < 0)
            continue;
        id2 = read(bus, addr, REG_PHYSID2);
        if (id2 < 0)
            continue;
        ids[addr] = ((uint32_t)(id1 & 0xffff) << 16) | (uint32_t)(id2 & 0xffff);
    }
}
