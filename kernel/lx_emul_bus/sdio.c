// SPDX-License-Identifier: MIT
/* sdio_* on top of the SDIO host bridge: host claiming (recursive per task, as mmc_claim_host),
 * CMD52 byte access with func->num read at call time (wilc1000 rewrites it before each call),
 * and CMD53 split like the MMC core's sdio_io_rw_ext_helper: as many whole blocks of
 * func->cur_blksize as possible (at most 511 per command), then byte-mode chunks of at most
 * min(cur_blksize, 512) bytes. */
#include <linux/kernel.h>
#include <linux/mmc/sdio_func.h>
#include <linux/mmc/host.h>
#include <linux/errno.h>

#include <lx_kit/lx_kit.h>

#include "bridge_c.h"

static struct mmc_host* host_of(struct sdio_func* func)
{
    if (!func->card || !func->card->host)
        lx_kit_abort("sdio: function %s has no card/host", dev_name(&func->dev));
    return func->card->host;
}

void sdio_claim_host(struct sdio_func* func)
{
    struct mmc_host* host = host_of(func);
    struct lx_kit_task* self = lx_kit_task_current();

    if (!host->nicsim_claim_wait)
        host->nicsim_claim_wait = lx_kit_wait_alloc("mmc_claim_host");
    /* nicsim_claimer is the holder, or the waiter the host was handed to (count still 0). */
    while (host->nicsim_claimer && host->nicsim_claimer != self)
        lx_kit_wait_block(host->nicsim_claim_wait, -1, "sdio_claim_host");
    host->nicsim_claimer = self;
    host->nicsim_claim_cnt++;
    lx_bus_sdio_bridge_claim(func->nicsim_bridge, dev_name(&func->dev));
}

void sdio_release_host(struct sdio_func* func)
{
    struct mmc_host* host = host_of(func);

    if (!host->nicsim_claim_cnt || host->nicsim_claimer != lx_kit_task_current())
        lx_kit_abort("sdio_release_host(%s): host not claimed by this task",
                     dev_name(&func->dev));
    lx_bus_sdio_bridge_release(func->nicsim_bridge, dev_name(&func->dev));
    /* mmc_release_host clears host->claimed and wakes the waiters (drivers/mmc/core/core.c);
     * __mmc_claim_host rechecks host->claimed when its task runs. On one core the woken task
     * (the kworker running sdio_irq_work, or the TX kthread) preempts the releasing task at
     * once: CFS places a task that slept behind min_vruntime (place_entity's sleeper credit),
     * so check_preempt_wakeup reschedules in favour of it, and it claims the host before the
     * releaser can claim it again. Here the woken task still sits in its wake-up latency when
     * the releaser runs on, so the host is handed to the first waiter; without the hand-off the
     * woken task finds the host claimed again and sleeps again, once per command. */
    if (--host->nicsim_claim_cnt == 0)
        host->nicsim_claimer = lx_kit_wait_notify_one(host->nicsim_claim_wait);
}

static void check_claimed(struct sdio_func* func, const char* what)
{
    struct mmc_host* host = host_of(func);
    if (!host->nicsim_claim_cnt || host->nicsim_claimer != lx_kit_task_current())
        lx_kit_abort("%s(%s): called without sdio_claim_host", what, dev_name(&func->dev));
}

u8 sdio_readb(struct sdio_func* func, unsigned int addr, int* err_ret)
{
    u8 v = 0;
    int ret;
    check_claimed(func, "sdio_readb");
    ret = lx_bus_sdio_bridge_cmd52(func->nicsim_bridge, dev_name(&func->dev), func->num, 0, addr,
                                   &v);
    if (err_ret)
        *err_ret = ret;
    return ret ? 0xff : v;
}

void sdio_writeb(struct sdio_func* func, u8 b, unsigned int addr, int* err_ret)
{
    int ret;
    check_claimed(func, "sdio_writeb");
    ret = lx_bus_sdio_bridge_cmd52(func->nicsim_bridge, dev_name(&func->dev), func->num, 1, addr,
                                   &b);
    if (err_ret)
        *err_ret = ret;
}

static int rw_ext(struct sdio_func* func, int write, unsigned addr, u8* buf, unsigned size)
{
    const unsigned blksz = func->cur_blksize;
    unsigned max_bytes = func->max_blksize && func->max_blksize < 512 ? func->max_blksize : 512;
    int ret;

    if (blksz == 0)
        lx_kit_abort("sdio CMD53 on %s: cur_blksize is 0", dev_name(&func->dev));
    /* block mode (the modelled cards support multi-block) */
    while (size > max_bytes && size >= blksz) {
        unsigned blocks = size / blksz;
        if (blocks > 511)
            blocks = 511;
        ret = lx_bus_sdio_bridge_cmd53(func->nicsim_bridge, dev_name(&func->dev), func->num,
                                       write, addr, 1, 1, blocks, blksz, buf);
        if (ret)
            return ret;
        size -= blocks * blksz;
        buf += blocks * blksz;
        addr += blocks * blksz;
    }
    while (size) { /* byte mode */
        unsigned n = size < max_bytes ? size : max_bytes;
        ret = lx_bus_sdio_bridge_cmd53(func->nicsim_bridge, dev_name(&func->dev), func->num,
                                       write, addr, 1, 0, n, blksz, buf);
        if (ret)
            return ret;
        size -= n;
        buf += n;
        addr += n;
    }
    return 0;
}

int sdio_memcpy_fromio(struct sdio_func* func, void* dst, unsigned int addr, int count)
{
    check_claimed(func, "sdio_memcpy_fromio");
    return count < 0 ? -EINVAL : rw_ext(func, 0, addr, dst, (unsigned)count);
}

int sdio_memcpy_toio(struct sdio_func* func, unsigned int addr, void* src, int count)
{
    check_claimed(func, "sdio_memcpy_toio");
    return count < 0 ? -EINVAL : rw_ext(func, 1, addr, src, (unsigned)count);
}

int sdio_set_block_size(struct sdio_func* func, unsigned blksz)
{
    int ret = 0;
    u8 lo = blksz & 0xff, hi = (blksz >> 8) & 0xff;
    ret = lx_bus_sdio_bridge_cmd52(func->nicsim_bridge, dev_name(&func->dev), 0, 1,
                                   SDIO_FBR_BASE(func->num) + SDIO_FBR_BLKSIZE, &lo);
    if (!ret)
        ret = lx_bus_sdio_bridge_cmd52(func->nicsim_bridge, dev_name(&func->dev), 0, 1,
                                       SDIO_FBR_BASE(func->num) + SDIO_FBR_BLKSIZE + 1, &hi);
    if (!ret)
        func->cur_blksize = blksz;
    return ret;
}

/* The in-band SDIO interrupt, as the MMC core runs it (drivers/mmc/core/sdio_irq.c): the host
 * controller's interrupt queues sdio_irq_work, which claims the host and, with a single function
 * that has a handler and the interrupt known to be pending, calls that handler directly (no
 * CCCR INTx read: process_sdio_pending_irqs' sdio_single_irq shortcut). The host interrupt is
 * re-enabled afterwards, so a card that still asserts interrupts again. One task per host runs
 * this loop; it parks while no handler is claimed. */
static void sdio_irq_task(void* arg)
{
    struct sdio_func* func = arg;
    struct mmc_host* host = host_of(func);

    for (;;) {
        while (!func->irq_handler)
            lx_kit_wait_block(host->nicsim_irq_claimed, -1, "sdio_irq: no handler claimed");
        lx_bus_sdio_bridge_wait_irq(func->nicsim_bridge, dev_name(&func->dev));
        lx_kit_irq_charge(); /* the host controller's hard IRQ and the switch to this task */
        /* The handler is read under the host claim, as sdio_run_irqs does: sdio_release_irq
         * runs with the host claimed (wilc_sdio_disable_interrupt at ifdown), so a handler
         * seen before claiming may be gone after. */
        sdio_claim_host(func);
        if (func->irq_handler)
            func->irq_handler(func);
        sdio_release_host(func);
    }
}

int sdio_claim_irq(struct sdio_func* func, sdio_irq_handler_t* handler)
{
    struct mmc_host* host = host_of(func);

    check_claimed(func, "sdio_claim_irq");
    if (func->irq_handler)
        return -EBUSY;
    func->irq_handler = handler;
    /* sdio_card_irq_get: the first handler enables the host's SDIO interrupt (one function). */
    lx_bus_sdio_bridge_enable_irq(func->nicsim_bridge, dev_name(&func->dev), 1);
    if (!host->nicsim_irq_claimed)
        host->nicsim_irq_claimed = lx_kit_wait_alloc("sdio_irq_claimed");
    if (!host->nicsim_irq_task)
        host->nicsim_irq_task = lx_kit_task_create("ksdioirqd/mmc0", sdio_irq_task, func);
    else
        lx_kit_wait_notify_all(host->nicsim_irq_claimed);
    return 0;
}

int sdio_release_irq(struct sdio_func* func)
{
    check_claimed(func, "sdio_release_irq");
    if (func->irq_handler)
        lx_bus_sdio_bridge_enable_irq(func->nicsim_bridge, dev_name(&func->dev), 0);
    func->irq_handler = NULL;
    return 0;
}
