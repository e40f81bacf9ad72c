/* SPDX-License-Identifier: MIT */
/* linux/spi/spi.h subset: spi_device/controller/transfer/message/driver. spi_sync() is
 * implemented in kernel/lx_emul_bus/spi.c and becomes one chip-select frame on the SPI host
 * attached to the device (kernel/lx_emul_bus/spi_bridge.cc). */
#ifndef LX_EMUL_SPI_H
#define LX_EMUL_SPI_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>

#define SPI_CPHA 0x01
#define SPI_CPOL 0x02
#define SPI_MODE_0 0
#define SPI_MODE_1 SPI_CPHA
#define SPI_MODE_2 SPI_CPOL
#define SPI_MODE_3 (SPI_CPOL | SPI_CPHA)
#define SPI_CS_HIGH 0x04
#define SPI_LSB_FIRST 0x08
#define SPI_3WIRE 0x10

#define SPI_CONTROLLER_HALF_DUPLEX (1u << 0)
#define SPI_CONTROLLER_NO_RX (1u << 1)
#define SPI_CONTROLLER_NO_TX (1u << 2)
#define SPI_MASTER_HALF_DUPLEX SPI_CONTROLLER_HALF_DUPLEX
#define SPI_MASTER_NO_RX SPI_CONTROLLER_NO_RX
#define SPI_MASTER_NO_TX SPI_CONTROLLER_NO_TX

#define SPI_NAME_SIZE 32

struct spi_controller {
    struct device dev;
    s16 bus_num;
    u16 num_chipselect;
    u16 flags;
};
#define spi_master spi_controller

struct spi_device {
    struct device dev;
    struct spi_controller* controller;
    struct spi_controller* master; /* compatibility alias, same object */
    u32 max_speed_hz;
    u8 chip_select;
    u8 bits_per_word;
    u32 mode;
    int irq;
    char modalias[SPI_NAME_SIZE];
    void* nicsim_bridge; /* C++ side: the attached host port (spi_bridge.cc) */
};

static inline struct spi_device* to_spi_device(const struct device* dev)
{
    return dev ? container_of(dev, struct spi_device, dev) : NULL;
}
static inline void spi_set_drvdata(struct spi_device* spi, void* data)
{
    dev_set_drvdata(&spi->dev, data);
}
static inline void* spi_get_drvdata(struct spi_device* spi) { return dev_get_drvdata(&spi->dev); }

#define SPI_DELAY_UNIT_USECS 0
#define SPI_DELAY_UNIT_NSECS 1
#define SPI_DELAY_UNIT_SCK 2

struct spi_delay {
    u16 value;
    u8 unit;
};

struct spi_transfer {
    const void* tx_buf;
    void* rx_buf;
    unsigned len;
    unsigned cs_change : 1;
    unsigned tx_nbits : 3;
    unsigned rx_nbits : 3;
    u8 bits_per_word;
    struct spi_delay delay;
    struct spi_delay cs_change_delay;
    struct spi_delay word_delay;
    u32 speed_hz;
    struct list_head transfer_list;
};

struct spi_message {
    struct list_head transfers;
    struct spi_device* spi;
    unsigned is_dma_mapped : 1;
    void (*complete)(void* context);
    void* context;
    unsigned frame_length;
    unsigned actual_length;
    int status;
    struct list_head queue;
    void* state;
};

static inline void spi_message_init_no_memset(struct spi_message* m)
{
    INIT_LIST_HEAD(&m->transfers);
    INIT_LIST_HEAD(&m->queue);
}
static inline void spi_message_init(struct spi_message* m)
{
    memset(m, 0, sizeof(*m));
    spi_message_init_no_memset(m);
}
static inline void spi_message_add_tail(struct spi_transfer* t, struct spi_message* m)
{
    list_add_tail(&t->transfer_list, &m->transfers);
}

struct spi_device_id {
    char name[SPI_NAME_SIZE];
    unsigned long driver_data;
};

struct spi_driver {
    const struct spi_device_id* id_table;
    int (*probe)(struct spi_device* spi);
    void (*remove)(struct spi_device* spi);
    void (*shutdown)(struct spi_device* spi);
    struct device_driver driver;
};

int spi_sync(struct spi_device* spi, struct spi_message* message);

/* The kernel's synchronous helpers (include/linux/spi/spi.h): a message built from `num_xfers`
 * transfers, then spi_sync. */
static inline void spi_message_init_with_transfers(struct spi_message* m,
                                                   struct spi_transfer* xfers,
                                                   unsigned int num_xfers)
{
    spi_message_init(m);
    for (unsigned int i = 0; i < num_xfers; ++i)
        spi_message_add_tail(&xfers[i], m);
}
static inline int spi_sync_transfer(struct spi_device* spi, struct spi_transfer* xfers,
                                    unsigned int num_xfers)
{
    struct spi_message msg;
    spi_message_init_with_transfers(&msg, xfers, num_xfers);
    return spi_sync(spi, &msg);
}
/* spi_write()/spi_read(): one transfer, one chip-select frame. */
static inline int spi_write(struct spi_device* spi, const void* buf, size_t len)
{
    struct spi_transfer t = {.tx_buf = buf, .len = (unsigned)len};
    return spi_sync_transfer(spi, &t, 1);
}
static inline int spi_read(struct spi_device* spi, void* buf, size_t len)
{
    struct spi_transfer t = {.rx_buf = buf, .len = (unsigned)len};
    return spi_sync_transfer(spi, &t, 1);
}
/* drivers/spi/spi.c: n_tx bytes out, then n_rx bytes in, in one message (two transfers, one
 * chip-select window) through a bounce buffer. Implemented in kernel/lx_emul_bus/spi.c. */
int spi_write_then_read(struct spi_device* spi, const void* txbuf, unsigned n_tx, void* rxbuf,
                        unsigned n_rx);

/* Registration records which driver variant (NICSIM_VARIANT of the registering translation
 * unit) the driver belongs to, so the testbench can probe wilc1000/pristine and
 * wilc1000/no-chip-sleep side by side. */
int lx_emul_spi_register_driver(struct spi_driver* drv, const char* modname, const char* variant);
void spi_unregister_driver(struct spi_driver* drv);
#define spi_register_driver(drv) lx_emul_spi_register_driver(drv, LX_EMUL_MODNAME, LX_EMUL_VARIANT)
#define module_spi_driver(__spi_driver)                                                            \
    module_driver(__spi_driver, spi_register_driver, spi_unregister_driver)

#endif
