// SPDX-License-Identifier: MIT
/* spi_sync and spi_write_then_read on the shadow headers' spi_device: the code is
 * spi_message.h, which the real headers' emulation compiles on the kernel's layouts too. */
#include <linux/kernel.h>
#include <linux/spi/spi.h>
#include <linux/slab.h>
#include <linux/errno.h>

#include <lx_kit/lx_kit.h>

#include "bridge_c.h"

/* The device's bus bridge and chip select on the shadow headers' spi_device. */
#define LX_SPI_BRIDGE(spi) ((spi)->nicsim_bridge)
#define LX_SPI_CHIP_SELECT(spi) ((spi)->chip_select)
#include "spi_message.h"
