/* SPDX-License-Identifier: MIT */
/* The definition of spi_write_then_read, included by the spi.c of both emulations
 * (kernel/lx_emul_bus/ on the shadow headers, kernel/lx_emul_real/ on a tree's real headers): the
 * same code compiled against each header set's spi_message and spi_transfer, on its spi_sync.
 * Needs <linux/spi/spi.h>, <linux/slab.h> and <linux/string.h> included before it. */
#ifndef LX_EMUL_BUS_SPI_WRITE_THEN_READ_H
#define LX_EMUL_BUS_SPI_WRITE_THEN_READ_H

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
