// SPDX-License-Identifier: MIT
/* lx_emul: completions and wait queues (see lx_emul/wait.h). */
#include "internal.h"

void complete(struct completion* x)
{
    if (x->done != UINT_MAX)
        x->done++;
    if (x->waitq)
        lx_kit_wait_notify_one(x->waitq);
}

void complete_all(struct completion* x)
{
    x->done = UINT_MAX;
    if (x->waitq)
        lx_kit_wait_notify_all(x->waitq);
}

static void consume(struct completion* x)
{
    if (x->done != UINT_MAX)
        x->done--;
}

void wait_for_completion(struct completion* x)
{
    lx_emul_might_sleep("wait_for_completion");
    while (!x->done)
        lx_kit_wait_block(lx_emul_waitq(&x->waitq, "completion"), -1, "wait_for_completion");
    consume(x);
}

unsigned long wait_for_completion_timeout(struct completion* x, unsigned long timeout)
{
    long left = timeout > (unsigned long)MAX_SCHEDULE_TIMEOUT ? MAX_SCHEDULE_TIMEOUT : (long)timeout;
    lx_emul_might_sleep("wait_for_completion_timeout");
    while (!x->done && left)
        left = lx_emul_block_jiffies(lx_emul_waitq(&x->waitq, "completion"), left,
                                     "wait_for_completion_timeout");
    if (!x->done)
        return 0;
    consume(x);
    return left ? (unsigned long)left : 1;
}

bool try_wait_for_completion(struct completion* x)
{
    if (!x->done)
        return false;
    consume(x);
    return true;
}

bool completion_done(struct completion* x) { return x->done != 0; }

void lx_emul_wake_up(struct wait_queue_head* wq)
{
    if (wq->waitq)
        lx_kit_wait_notify_all(wq->waitq);
}

bool lx_emul_waitqueue_active(struct wait_queue_head* wq)
{
    return wq->waitq && lx_kit_wait_count(wq->waitq) > 0;
}

long lx_emul_wait_queue_block(struct wait_queue_head* wq, long timeout, const char* why)
{
    lx_emul_might_sleep(why);
    return lx_emul_block_jiffies(lx_emul_waitq(&wq->waitq, "wait_queue"), timeout, why);
}
