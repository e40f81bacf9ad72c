// SPDX-License-Identifier: MIT
/* lx_emul_real: spi_sync and spi_write_then_read on the kernel's spi_device, spi_message and
 * spi_transfer: the shadow headers' code (kernel/lx_emul_bus/spi_message.h) compiled on these
 * layouts. One message is one chip-select frame on the SPI host the simulator attached to the
 * device, its bus bridge, kept beside the device (lx_real_spi_set_bridge); the chip select is
 * the device's first. */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/spi/spi.h>
#include <linux/string.h>

#include <lx_emul/real.h>

#include "../lx_emul_bus/bridge_c.h"
#include "internal.h"

struct spi_side {
    void *bridge;
};

void lx_real_spi_set_bridge(struct spi_device *spi, void *bridge)
{
    ((struct spi_side *)lx_real_side(spi, sizeof(struct spi_side)))->bridge = bridge;
}

static void *bridge_of(struct spi_device *spi)
{
    return ((struct spi_side *)lx_real_side(spi, sizeof(struct spi_side)))->bridge;
}

#define LX_SPI_BRIDGE(spi) bridge_of(spi)
#define LX_SPI_CHIP_SELECT(spi) spi_get_chipselect((spi), 0)
#include "../lx_emul_bus/spi_message.h"
