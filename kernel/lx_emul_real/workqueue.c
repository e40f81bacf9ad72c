// SPDX-License-Identifier: MIT
/* lx_emul_real: workqueues. Each kernel struct work_struct gets an lx_emul work item beside it
 * on first queueing (lx_emul/shared.h), which lx_emul's workqueues run; its function calls the
 * work's func. The kernel's pending bit in `data` (what work_pending() reads) follows the item's:
 * set when queued, cleared when a worker picks the work up (before its function runs, as the
 * kernel's worker clears it) or when it is cancelled. The system queues are one: lx_emul's system
 * queue, which the variables name by a token (they are read before anything could set them). */
#include <linux/bitops.h>
#include <linux/workqueue.h>

#include <lx_emul/shared.h>

#include "internal.h"

static char system_token;
#define SYSTEM_WQ ((struct workqueue_struct *)&system_token)
struct workqueue_struct *system_wq = SYSTEM_WQ;
struct workqueue_struct *system_percpu_wq = SYSTEM_WQ;
struct workqueue_struct *system_highpri_wq = SYSTEM_WQ;
struct workqueue_struct *system_long_wq = SYSTEM_WQ;
struct workqueue_struct *system_unbound_wq = SYSTEM_WQ;
struct workqueue_struct *system_freezable_wq = SYSTEM_WQ;
struct workqueue_struct *system_power_efficient_wq = SYSTEM_WQ;
struct workqueue_struct *system_freezable_power_efficient_wq = SYSTEM_WQ;

struct real_work {
    struct lx_emul_work_item *item;
};

static void run_work(void *ctx)
{
    struct work_struct *work = ctx;
    clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
    work->func(work); /* may free `work` */
}

static struct lx_emul_work_item *item_of(struct work_struct *work, bool create)
{
    struct real_work *rw = lx_real_side(work, sizeof(*rw));
    if (!rw->item && create)
        rw->item = lx_emul_work_item_alloc(run_work, work);
    return rw->item;
}

bool queue_work_on(int cpu, struct workqueue_struct *wq, struct work_struct *work)
{
    (void)cpu; /* one CPU */
    if (!wq)
        lx_kit_abort("queue_work on a NULL workqueue");
    if (test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work)))
        return false;
    if (!lx_emul_work_item_queue(wq == SYSTEM_WQ ? NULL : wq, item_of(work, true))) {
        clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
        return false;
    }
    return true;
}

bool flush_work(struct work_struct *work)
{
    struct lx_emul_work_item *item = item_of(work, false);
    return item && lx_emul_work_item_flush(item);
}

bool cancel_work(struct work_struct *work)
{
    struct lx_emul_work_item *item = item_of(work, false);
    bool was_pending = item && lx_emul_work_item_cancel(item);
    clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
    return was_pending;
}

bool cancel_work_sync(struct work_struct *work)
{
    struct lx_emul_work_item *item = item_of(work, false);
    bool was_pending = item && lx_emul_work_item_cancel_sync(item);
    clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
    return was_pending;
}
