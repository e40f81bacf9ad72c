/* SPDX-License-Identifier: MIT */
/* spi_sync and spi_write_then_read, included by the spi.c of both emulations
 * (kernel/lx_emul_bus/ on the shadow headers, kernel/lx_emul_real/ on a tree's real headers): the
 * same code compiled against each header set's spi_device, spi_message and spi_transfer. The
 * includer defines LX_SPI_BRIDGE(spi), the device's bus bridge (bridge_c.h), and
 * LX_SPI_CHIP_SELECT(spi), and includes <linux/spi/spi.h>, <linux/slab.h>, <linux/string.h>,
 * lx_kit.h and bridge_c.h first.
 *
 * spi_sync(): one spi_message becomes one chip-select frame on the SPI host attached to the
 * device. Transfers are flattened in list order with the kernel's defaults resolved here
 * (bits_per_word 0 -> the device's, speed 0 -> the device's max_speed_hz, delay units). */
#ifndef LX_EMUL_BUS_SPI_MESSAGE_H
#define LX_EMUL_BUS_SPI_MESSAGE_H

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
    ret = lx_bus_spi_bridge_transfer(LX_SPI_BRIDGE(spi), dev_name(&spi->dev), LX_SPI_CHIP_SELECT(spi),
                                     spi->max_speed_hz, spi->mode & (SPI_CPHA | SPI_CPOL), x, n);
    if (x != small)
        kfree(x);
    message->status = ret;
    message->actual_length = ret ? 0 : message->frame_length;
    return ret;
}

/* spi_write_then_read (drivers/spi/spi.c): copies txbuf into a bounce buffer, sends it and reads
 * n_rx bytes in one message of two transfers (one chip-select window), then copies the read
 * bytes out. The kernel's bounce buffer is a static SPI_BUFSIZ (max(32, SMP_CACHE_BYTES)) one
 * under a trylock, else kmalloc; here small messages use the stack (lx_kit tasks may interleave
 * in spi_sync, so no shared buffer) and larger ones kmalloc as the kernel does. */
#define LX_EMUL_SPI_BUFSIZ 32

int spi_write_then_read(struct spi_device* spi, const void* txbuf, unsigned n_tx, void* rxbuf,
                        unsigned n_rx)
{
    u8 small[LX_EMUL_SPI_BUFSIZ];
    u8* local_buf = small;
    struct spi_message message;
    struct spi_transfer x[2];
    int status;

    if (n_tx + n_rx > sizeof(small)) {
        local_buf = kmalloc(n_tx + n_rx, GFP_KERNEL);
        if (!local_buf)
            return -ENOMEM;
    }
    spi_message_init(&message);
    memset(x, 0, sizeof(x));
    if (n_tx) {
        x[0].len = n_tx;
        spi_message_add_tail(&x[0], &message);
    }
    if (n_rx) {
        x[1].len = n_rx;
        spi_message_add_tail(&x[1], &message);
    }
    memcpy(local_buf, txbuf, n_tx);
    x[0].tx_buf = local_buf;
    x[1].rx_buf = local_buf + n_tx;

    status = spi_sync(spi, &message);
    if (status == 0)
        memcpy(rxbuf, x[1].rx_buf, n_rx);
    if (local_buf != small)
        kfree(local_buf);
    return status;
}

#endif
