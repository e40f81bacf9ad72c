// SPDX-License-Identifier: MIT
/* spi_sync(): one spi_message becomes one chip-select frame on the SPI host attached to the
 * device. Transfers are flattened in list order with the kernel's defaults resolved here
 * (bits_per_word 0 -> the device's, speed 0 -> the device's max_speed_hz, delay units).
 * spi_write_then_read is shared with the real headers' emulation (spi_write_then_read.h). */
#include <linux/kernel.h>
#include <linux/spi/spi.h>
#include <linux/slab.h>
#include <linux/errno.h>

#include <lx_kit/lx_kit.h>

#include "bridge_c.h"

static uint64_t delay_ns(const struct spi_delay* d, uint32_t speed_hz)
{
    switch (d->unit) {
    case SPI_DELAY_UNIT_USECS:
        return (uint64_t)d->value * 1000u;
    case SPI_DELAY_UNIT_NSECS:
        return d->value;
    case SPI_DELAY_UNIT_SCK:
        return speed_hz ? (uint64_t)d->value * 1000000000ull / speed_hz : 0;
    default:
        lx_kit_abort("spi_sync: unknown spi_delay unit %u", d->unit);
    }
}

int spi_sync(struct spi_device* spi, struct spi_message* message)
{
    struct spi_transfer* t;
    struct lx_bus_spi_xfer* x;
    /* Messages of the modelled drivers have at most 4 transfers: those stay on the stack (this
     * runs for every message, so no allocation on the hot path); longer ones are allocated. */
    struct lx_bus_spi_xfer small[4];
    size_t n = 0, i = 0;
    int ret;

    if (!spi)
        lx_kit_abort("spi_sync: NULL spi_device");
    list_for_each_entry(t, &message->transfers, transfer_list) n++;
    if (n == 0)
        return -EINVAL; /* __spi_validate: an empty message is invalid */
    x = n <= ARRAY_SIZE(small) ? small : kcalloc(n, sizeof(*x), GFP_KERNEL);
    if (!x)
        return -ENOMEM;
    message->spi = spi;
    message->frame_length = 0;
    list_for_each_entry(t, &message->transfers, transfer_list) {
        uint32_t speed = t->speed_hz ? t->speed_hz : spi->max_speed_hz;
        x[i].tx = t->tx_buf;
        x[i].rx = t->rx_buf;
        x[i].len = t->len;
        x[i].bits_per_word = t->bits_per_word ? t->bits_per_word
                             : spi->bits_per_word ? spi->bits_per_word : 8;
        x[i].speed_hz = t->speed_hz;
        x[i].delay_after_ns = delay_ns(&t->delay, speed);
        x[i].cs_change = t->cs_change;
        message->frame_length += t->len;
        i++;
    }
    ret = lx_bus_spi_bridge_transfer(spi->nicsim_bridge, dev_name(&spi->dev), spi->chip_select,
                                     spi->max_speed_hz, spi->mode & (SPI_CPHA | SPI_CPOL), x, n);
    if (x != small)
        kfree(x);
    message->status = ret;
    message->actual_length = ret ? 0 : message->frame_length;
    return ret;
}

#include "spi_write_then_read.h"
