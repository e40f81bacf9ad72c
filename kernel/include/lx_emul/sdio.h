/* SPDX-License-Identifier: MIT */
/* linux/mmc/{host,card,sdio,sdio_func,sdio_ids}.h subset. sdio_* calls are implemented in
 * kernel/lx_emul_bus/sdio.c and forwarded as CMD52/CMD53 to the SDIO host attached to the
 * function (kernel/lx_emul_bus/sdio_bridge.cc). The driver rewrites func->num before each
 * call (sdio.c), so the bridge reads it at call time. */
#ifndef LX_EMUL_SDIO_H
#define LX_EMUL_SDIO_H

#include <linux/types.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>

/* CCCR / FBR register map (include/linux/mmc/sdio.h values). */
#define SDIO_CCCR_CCCR 0x00
#define SDIO_CCCR_SD 0x01
#define SDIO_CCCR_IOEx 0x02
#define SDIO_CCCR_IORx 0x03
#define SDIO_CCCR_IENx 0x04
#define SDIO_CCCR_INTx 0x05
#define SDIO_CCCR_ABORT 0x06
#define SDIO_CCCR_IF 0x07
#define SDIO_CCCR_CAPS 0x08
#define SDIO_CCCR_CIS 0x09
#define SDIO_CCCR_SUSPEND 0x0c
#define SDIO_CCCR_SELx 0x0d
#define SDIO_CCCR_EXECx 0x0e
#define SDIO_CCCR_READYx 0x0f
#define SDIO_CCCR_BLKSIZE 0x10
#define SDIO_CCCR_POWER 0x12
#define SDIO_CCCR_SPEED 0x13
#define SDIO_FBR_BASE(f) ((f) * 0x100)
#define SDIO_FBR_STD_IF 0x00
#define SDIO_FBR_ENABLE_CSA 0x80
#define SDIO_FBR_CIS 0x09
#define SDIO_FBR_CSA 0x0C
#define SDIO_FBR_CSA_DATA 0x0F
#define SDIO_FBR_BLKSIZE 0x10

#define SDIO_VENDOR_ID_MICROCHIP_WILC 0x0296
#define SDIO_DEVICE_ID_MICROCHIP_WILC1000 0x5347

#define SDIO_ANY_ID (~0)

struct lx_kit_task;
struct lx_kit_wait;

struct mmc_host {
    struct device* parent;
    unsigned int max_blk_size;
    unsigned int max_blk_count;
    unsigned int max_req_size;
    /* nicsim: mmc_claim_host state (recursive per task, like claim_cnt in the kernel). */
    struct lx_kit_task* nicsim_claimer;
    unsigned nicsim_claim_cnt;
    struct lx_kit_wait* nicsim_claim_wait;
    /* nicsim: the SDIO interrupt thread (the MMC core's sdio_irq_work) and where it parks while
     * no function has an interrupt handler claimed. */
    struct lx_kit_task* nicsim_irq_task;
    struct lx_kit_wait* nicsim_irq_claimed;
};

struct mmc_card {
    struct mmc_host* host;
    struct device dev;
};

struct sdio_func;
typedef void(sdio_irq_handler_t)(struct sdio_func*);

struct sdio_func {
    struct mmc_card* card;
    struct device dev;
    sdio_irq_handler_t* irq_handler;
    unsigned int num;
    unsigned char class;
    unsigned short vendor;
    unsigned short device;
    unsigned max_blksize;
    unsigned cur_blksize;
    unsigned enable_timeout;
    void* nicsim_bridge; /* C++ side: the attached SDIO host (sdio_bridge.cc) */
};

#define dev_to_sdio_func(d) container_of(d, struct sdio_func, dev)
#define sdio_get_drvdata(f) dev_get_drvdata(&(f)->dev)
#define sdio_set_drvdata(f, d) dev_set_drvdata(&(f)->dev, d)

struct sdio_device_id {
    __u8 class;
    __u16 vendor;
    __u16 device;
    unsigned long driver_data;
};

#define SDIO_DEVICE(vend, dev) .class = SDIO_ANY_ID, .vendor = (vend), .device = (dev)

struct sdio_driver {
    char* name;
    const struct sdio_device_id* id_table;
    int (*probe)(struct sdio_func*, const struct sdio_device_id*);
    void (*remove)(struct sdio_func*);
    struct device_driver drv;
};

int lx_emul_sdio_register_driver(struct sdio_driver* drv, const char* modname,
                                 const char* variant);
void sdio_unregister_driver(struct sdio_driver* drv);
#define sdio_register_driver(drv)                                                                  \
    lx_emul_sdio_register_driver(drv, LX_EMUL_MODNAME, LX_EMUL_VARIANT)
/* 6.12's wilc1000 sdio.c (6.1 spells it out with module_driver). */
#define module_sdio_driver(__sdio_driver)                                                          \
    module_driver(__sdio_driver, sdio_register_driver, sdio_unregister_driver)

void sdio_claim_host(struct sdio_func* func);
void sdio_release_host(struct sdio_func* func);
int sdio_enable_func(struct sdio_func* func);
int sdio_disable_func(struct sdio_func* func);
int sdio_set_block_size(struct sdio_func* func, unsigned blksz);
int sdio_claim_irq(struct sdio_func* func, sdio_irq_handler_t* handler);
int sdio_release_irq(struct sdio_func* func);
u8 sdio_readb(struct sdio_func* func, unsigned int addr, int* err_ret);
void sdio_writeb(struct sdio_func* func, u8 b, unsigned int addr, int* err_ret);
int sdio_memcpy_fromio(struct sdio_func* func, void* dst, unsigned int addr, int count);
int sdio_memcpy_toio(struct sdio_func* func, unsigned int addr, void* src, int count);

#endif
