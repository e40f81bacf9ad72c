// SPDX-License-Identifier: MIT
/* lx_emul_real: spi_sync on the kernel's spi_device, spi_message and spi_transfer. One message is
 * one chip-select frame on the SPI host the simulator attached to the device (its bus bridge,
 * kept beside the device: lx_real_spi_set_bridge); the transfers are flattened in list order with
 * the kernel's defaults resolved (bits_per_word 0: the device's, else 8; speed 0: the device's
 * max_speed_hz; the delay after each in its unit), as the shadow headers' spi_sync does.
 * spi_write_then_read is the shadow headers' code compiled on these layouts. */
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

static u64 delay_ns(const struct spi_delay *d, u32 speed_hz)
{
    switch (d->unit) {
    case SPI_DELAY_UNIT_USECS:
        return (u64)d->value * 1000u;
    case SPI_DELAY_UNIT_NSECS:
        return d->value;
    case SPI_DELAY_UNIT_SCK:
        return speed_hz ? (u64)d->value * 1000000000ull / speed_hz : 0;
    default:
        lx_kit_abort("spi_sync: unknown spi_delay unit %u", d->unit);
    }
}

int spi_sync(struct spi_device *spi, struct spi_message *message)
{
    struct spi_transfer *t;
    /* A message of the modelled drivers has at most 4 transfers: those stay on the stack. */
    struct lx_bus_spi_xfer small[4], *x;
    size_t n = 0, i = 0;

    if (!spi)
        lx_kit_abort("spi_sync: NULL spi_device");
    list_for_each_entry(t, &message->transfers, transfer_list)
        n++;
    if (n == 0)
        return -EINVAL; /* __spi_validate: an empty message is invalid */
    x = n <= ARRAY_SIZE(small) ? small : kcalloc(n, sizeof(*x), GFP_KERNEL);
    if (!x)
        return -ENOMEM;
    message->spi = spi;
    message->frame_length = 0;
    list_for_each_entry(t, &message->transfers, transfer_list) {
        u32 speed = t->speed_hz ? t->speed_hz : spi->max_speed_hz;
        x[i] = (struct lx_bus_spi_xfer){
            .tx = t->tx_buf,
            .rx = t->rx_buf,
            .len = t->len,
            .bits_per_word = t->bits_per_word   ? t->bits_per_word
                             : spi->bits_per_word ? spi->bits_per_word
                                                  : 8,
            .speed_hz = t->speed_hz,
            .delay_after_ns = delay_ns(&t->delay, speed),
            .cs_change = t->cs_change,
        };
        message->frame_length += t->len;
        i++;
    }
    struct spi_side *side = lx_real_side(spi, sizeof(struct spi_side));
    int ret = lx_bus_spi_bridge_transfer(side->bridge, dev_name(&spi->dev),
                                         spi_get_chipselect(spi, 0), spi->max_speed_hz,
                                         spi->mode & (SPI_CPHA | SPI_CPOL), x, n);
    if (x != small)
        kfree(x);
    message->status = ret;
    message->actual_length = ret ? 0 : message->frame_length;
    return ret;
}

#include "../lx_emul_bus/spi_write_then_read.h"
