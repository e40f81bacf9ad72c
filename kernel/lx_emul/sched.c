// SPDX-License-Identifier: MIT
/* lx_emul: current, schedule(), schedule_timeout(), kthreads (see lx_emul/sched.h). */
#include <stdlib.h>

#include "internal.h"

static int next_pid = 1;

/* task_structs are emulation-owned (calloc, not kmalloc): they are not driver allocations. The
 * lx_kit task record points to them, which keeps them reachable until the end of the run. */
static struct task_struct* task_struct_alloc(struct lx_kit_task* kit, const char* name)
{
    struct task_struct* ts = calloc(1, sizeof(*ts));
    if (!ts)
        lx_kit_abort("out of host memory allocating a task_struct");
    ts->kit = kit;
    ts->pid = next_pid++;
    lx_emul_strscpy(ts->comm, name, sizeof(ts->comm));
    init_completion(&ts->exited_done);
    return ts;
}

struct task_struct* lx_emul_current(void)
{
    struct lx_kit_task* kit = lx_kit_task_current();
    struct task_struct* ts = lx_kit_task_data(kit);
    if (!ts) {
        ts = task_struct_alloc(kit, lx_kit_task_name(kit));
        lx_kit_task_set_data(kit, ts);
    }
    return ts;
}

void schedule(void)
{
    struct task_struct* cur = current;
    lx_emul_might_sleep("schedule");
    if (cur->__state == TASK_RUNNING) {
        /* Yield: let time progress by one quantum or until woken — never return at the same
         * instant, so `while (!cond) schedule();` loops make progress. */
        lx_kit_yield();
    } else {
        /* Sleeping state: until wake_up_process()/kthread_stop(). */
        lx_kit_sleep_ns(LX_KIT_FOREVER);
    }
    cur->__state = TASK_RUNNING;
}

long lx_emul_block_jiffies(struct lx_kit_wait* w, long timeout, const char* why)
{
    if (timeout == MAX_SCHEDULE_TIMEOUT) {
        lx_kit_wait_block(w, -1, why);
        return MAX_SCHEDULE_TIMEOUT;
    }
    if (timeout < 0)
        timeout = 0;
    u64 now = lx_kit_now_ns();
    unsigned long expire = lx_emul_jiffies_at(now) + (unsigned long)timeout;
    u64 deadline = lx_emul_tick_start_ns(expire);
    /* Deadlines beyond LX_KIT_MAX_TIMEOUT_NS (days) are treated as no timeout. */
    lx_kit_wait_block(w, deadline - now > LX_KIT_MAX_TIMEOUT_NS ? -1 : (int64_t)(deadline - now),
                      why);
    long rem = (long)(expire - lx_emul_jiffies_at(lx_kit_now_ns()));
    return rem < 0 ? 0 : rem;
}

long schedule_timeout(long timeout)
{
    struct task_struct* cur = current;
    lx_emul_might_sleep("schedule_timeout");
    if (timeout == MAX_SCHEDULE_TIMEOUT) {
        schedule();
        return MAX_SCHEDULE_TIMEOUT;
    }
    if (timeout < 0)
        timeout = 0;
    u64 now = lx_kit_now_ns();
    unsigned long expire = lx_emul_jiffies_at(now) + (unsigned long)timeout;
    u64 deadline = lx_emul_tick_start_ns(expire);
    /* Sleeps until the timer tick or an explicit wake-up. */
    lx_kit_sleep_ns(deadline - now > LX_KIT_MAX_TIMEOUT_NS ? LX_KIT_FOREVER : deadline - now);
    cur->__state = TASK_RUNNING;
    long rem = (long)(expire - lx_emul_jiffies_at(lx_kit_now_ns()));
    return rem < 0 ? 0 : rem;
}

long schedule_timeout_interruptible(long timeout)
{
    __set_current_state(TASK_INTERRUPTIBLE);
    return schedule_timeout(timeout);
}

long schedule_timeout_uninterruptible(long timeout)
{
    __set_current_state(TASK_UNINTERRUPTIBLE);
    return schedule_timeout(timeout);
}

long schedule_timeout_idle(long timeout)
{
    __set_current_state(TASK_IDLE);
    return schedule_timeout(timeout);
}

/* ---- kthreads ---- */

static void kthread_entry(void* arg)
{
    struct task_struct* k = arg;
    k->result = k->threadfn(k->data);
    k->exited = true;
    complete_all(&k->exited_done);
}

struct task_struct* lx_emul_kthread_create(int (*threadfn)(void* data), void* data,
                                           const char* namefmt, ...)
{
    char name[TASK_COMM_LEN];
    va_list ap;
    va_start(ap, namefmt);
    lx_emul_vsnprintf(name, sizeof(name), namefmt, ap);
    va_end(ap);
    struct task_struct* k = task_struct_alloc(NULL, name);
    k->is_kthread = true;
    k->threadfn = threadfn;
    k->data = data;
    k->__state = TASK_UNINTERRUPTIBLE;
    return k;
}

int wake_up_process(struct task_struct* t)
{
    if (t->is_kthread && !t->started) {
        t->started = true;
        t->__state = TASK_RUNNING;
        t->kit = lx_kit_task_create(t->comm, kthread_entry, t);
        lx_kit_task_set_data(t->kit, t);
        return 1;
    }
    if (t->exited || !t->kit)
        return 0;
    t->__state = TASK_RUNNING;
    lx_kit_task_wake(t->kit);
    return 1;
}

bool kthread_should_stop(void) { return current->should_stop; }

int kthread_stop(struct task_struct* k)
{
    int ret;
    if (!k->is_kthread)
        lx_kit_abort("kthread_stop on task '%s' which is not a kthread", k->comm);
    lx_emul_might_sleep("kthread_stop");
    k->should_stop = true;
    if (!k->started) {
        /* Never woken: its function never runs (kernel: -EINTR). */
        free(k);
        return -EINTR;
    }
    if (!k->exited) {
        wake_up_process(k);
        wait_for_completion(&k->exited_done);
    }
    ret = k->result;
    lx_kit_task_set_data(k->kit, NULL);
    if (k->exited_done.waitq)
        lx_kit_wait_free(k->exited_done.waitq);
    free(k);
    return ret;
}
