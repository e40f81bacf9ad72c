/* SPDX-License-Identifier: MIT */
/* lx_emul: workqueues (linux/workqueue.h).
 * A work item is PENDING from queue_work() until a worker picks it up (queue_work on a pending
 * item returns false and does nothing), then RUNNING; it may be queued again while running and
 * then runs once more afterwards, never concurrently with itself. flush_work() waits until the
 * instance queued at the time of the call has finished (returns false if idle). Workers are lx_kit
 * tasks: an ordered workqueue (max_active 1) has one, others (system_wq) add a worker whenever
 * all existing ones are busy, up to max_active (default 16), like the kernel's concurrency-managed
 * pools when a worker sleeps. Delayed work arms a timer (timer softirq) that queues the work. */
#ifndef LX_EMUL_WORKQUEUE_H
#define LX_EMUL_WORKQUEUE_H

#include <lx_emul/types.h>
#include <lx_emul/list.h>
#include <lx_emul/time.h>

struct work_struct;
struct workqueue_struct;
typedef void (*work_func_t)(struct work_struct* work);

struct work_struct {
    unsigned long data; /* bit 0: pending */
    struct list_head entry;
    work_func_t func;
    /* lx_emul */
    struct workqueue_struct* wq; /* queue it is pending on / last ran on */
    unsigned long queued_seq;    /* number of successful queue_work() calls */
};
#define WORK_STRUCT_PENDING_BIT 0
#define work_data_bits(work) ((unsigned long*)(&(work)->data))

struct delayed_work {
    struct work_struct work;
    struct timer_list timer;
    struct workqueue_struct* wq;
    int cpu;
};
struct rcu_work {
    struct work_struct work;
    struct workqueue_struct* wq;
};

void lx_emul_init_work(struct work_struct* work, work_func_t func);
void lx_emul_init_delayed_work(struct delayed_work* dwork, work_func_t func);
#define INIT_WORK(w, f) lx_emul_init_work((w), (f))
#define INIT_WORK_ONSTACK INIT_WORK
#define INIT_DELAYED_WORK(w, f) lx_emul_init_delayed_work((w), (f))
#define INIT_DEFERRABLE_WORK INIT_DELAYED_WORK
#define __WORK_INITIALIZER(n, f) {.data = 0, .entry = {&(n).entry, &(n).entry}, .func = (f)}
#define DECLARE_WORK(n, f) struct work_struct n = __WORK_INITIALIZER(n, f)
#define work_pending(work) test_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work))
#define delayed_work_pending(w) work_pending(&(w)->work)
static inline struct delayed_work* to_delayed_work(struct work_struct* work)
{
    return container_of(work, struct delayed_work, work);
}

enum {
    WQ_UNBOUND = 1 << 1,
    WQ_FREEZABLE = 1 << 2,
    WQ_MEM_RECLAIM = 1 << 3,
    WQ_HIGHPRI = 1 << 4,
    WQ_CPU_INTENSIVE = 1 << 5,
    WQ_SYSFS = 1 << 6,
    WQ_POWER_EFFICIENT = 1 << 7,
    __WQ_ORDERED = 1 << 17,
    __WQ_LEGACY = 1 << 18,
    WQ_MAX_ACTIVE = 512,
    WQ_DFL_ACTIVE = 16,
};

struct workqueue_struct* lx_emul_alloc_workqueue(unsigned int flags, int max_active,
                                                 const char* fmt, ...) __printf(3, 4);
#define alloc_workqueue(fmt, flags, max_active, ...)                                               \
    lx_emul_alloc_workqueue((flags), (max_active), fmt, ##__VA_ARGS__)
#define alloc_ordered_workqueue(fmt, flags, ...)                                                   \
    lx_emul_alloc_workqueue(WQ_UNBOUND | __WQ_ORDERED | (flags), 1, fmt, ##__VA_ARGS__)
#define create_workqueue(name)                                                                     \
    lx_emul_alloc_workqueue(__WQ_LEGACY | WQ_MEM_RECLAIM, 1, "%s", (name))
#define create_singlethread_workqueue(name)                                                        \
    alloc_ordered_workqueue("%s", __WQ_LEGACY | WQ_MEM_RECLAIM, (name))
#define create_freezable_workqueue(name)                                                           \
    lx_emul_alloc_workqueue(__WQ_LEGACY | WQ_FREEZABLE | WQ_UNBOUND | WQ_MEM_RECLAIM, 1, "%s", (name))
void destroy_workqueue(struct workqueue_struct* wq);
void flush_workqueue(struct workqueue_struct* wq);
#define drain_workqueue flush_workqueue

struct workqueue_struct* lx_emul_system_wq(void);
#define system_wq lx_emul_system_wq()
#define system_highpri_wq lx_emul_system_wq()
#define system_long_wq lx_emul_system_wq()
#define system_unbound_wq lx_emul_system_wq()
#define system_freezable_wq lx_emul_system_wq()
#define system_power_efficient_wq lx_emul_system_wq()
#define system_freezable_power_efficient_wq lx_emul_system_wq()

/* The kernel's names are macros over lx_emul's: the emulation on the real headers defines the
 * names for its own struct work_struct (kernel/lx_emul_real/workqueue.c), and one link may hold
 * both. */
bool lx_emul_queue_work(struct workqueue_struct* wq, struct work_struct* work);
bool lx_emul_flush_work(struct work_struct* work);
bool lx_emul_cancel_work(struct work_struct* work);
bool lx_emul_cancel_work_sync(struct work_struct* work);
#define queue_work lx_emul_queue_work
#define flush_work lx_emul_flush_work
#define cancel_work lx_emul_cancel_work
#define cancel_work_sync lx_emul_cancel_work_sync
#define queue_work_on(cpu, wq, work) queue_work((wq), (work))
static inline bool schedule_work(struct work_struct* work) { return queue_work(system_wq, work); }
static inline void flush_scheduled_work(void) { flush_workqueue(system_wq); }

bool queue_delayed_work(struct workqueue_struct* wq, struct delayed_work* dwork,
                        unsigned long delay);
#define queue_delayed_work_on(cpu, wq, dwork, delay) queue_delayed_work((wq), (dwork), (delay))
bool mod_delayed_work(struct workqueue_struct* wq, struct delayed_work* dwork,
                      unsigned long delay);
static inline bool schedule_delayed_work(struct delayed_work* dwork, unsigned long delay)
{
    return queue_delayed_work(system_wq, dwork, delay);
}
bool cancel_delayed_work(struct delayed_work* dwork);
bool cancel_delayed_work_sync(struct delayed_work* dwork);
bool flush_delayed_work(struct delayed_work* dwork);

#endif /* LX_EMUL_WORKQUEUE_H */
