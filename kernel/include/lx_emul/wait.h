/* SPDX-License-Identifier: MIT */
/* lx_emul: completions and wait queues (linux/completion.h, wait.h).
 * Completions COUNT like the kernel's: each complete() lets exactly one wait pass (also later
 * ones), complete_all() lets every current and future wait pass until reinit_completion().
 * Timeouts are in jiffies with schedule_timeout() semantics: the deadline is the tick
 * jiffies + timeout, and the return value is 0 on timeout, else the remaining jiffies (>= 1). */
#ifndef LX_EMUL_WAIT_H
#define LX_EMUL_WAIT_H

#include <lx_emul/types.h>
#include <lx_emul/sync.h>

#define MAX_SCHEDULE_TIMEOUT LONG_MAX

/* ---- completions ---- */
struct completion {
    unsigned int done;  /* UINT_MAX after complete_all */
    struct lx_kit_wait* waitq;
};
#define COMPLETION_INITIALIZER(work) {0, NULL}
#define COMPLETION_INITIALIZER_ONSTACK(work) {0, NULL}
#define DECLARE_COMPLETION(work) struct completion work = COMPLETION_INITIALIZER(work)
#define DECLARE_COMPLETION_ONSTACK(work) DECLARE_COMPLETION(work)
static inline void init_completion(struct completion* x)
{
    x->done = 0;
    x->waitq = NULL;
}
static inline void reinit_completion(struct completion* x) { x->done = 0; }
void complete(struct completion* x);
void complete_all(struct completion* x);
void wait_for_completion(struct completion* x);
unsigned long wait_for_completion_timeout(struct completion* x, unsigned long timeout);
bool try_wait_for_completion(struct completion* x);
bool completion_done(struct completion* x);
/* No signals: the interruptible/killable variants behave like the plain ones. */
static inline int wait_for_completion_interruptible(struct completion* x)
{
    wait_for_completion(x);
    return 0;
}
#define wait_for_completion_killable wait_for_completion_interruptible
#define wait_for_completion_io wait_for_completion
static inline long wait_for_completion_interruptible_timeout(struct completion* x,
                                                             unsigned long timeout)
{
    return (long)wait_for_completion_timeout(x, timeout);
}
#define wait_for_completion_killable_timeout wait_for_completion_interruptible_timeout
#define wait_for_completion_io_timeout wait_for_completion_timeout

/* ---- wait queues ---- */
struct wait_queue_head {
    spinlock_t lock;
    struct lx_kit_wait* waitq;
};
typedef struct wait_queue_head wait_queue_head_t;
#define __WAIT_QUEUE_HEAD_INITIALIZER(name) {.lock = __SPIN_LOCK_UNLOCKED(name.lock), .waitq = NULL}
#define DECLARE_WAIT_QUEUE_HEAD(name) struct wait_queue_head name = __WAIT_QUEUE_HEAD_INITIALIZER(name)
static inline void init_waitqueue_head(struct wait_queue_head* wq)
{
    lx_emul_spin_lock_init(&wq->lock, "wait_queue_head");
    wq->waitq = NULL;
}
void lx_emul_wake_up(struct wait_queue_head* wq);
#define wake_up(wq) lx_emul_wake_up(wq)
#define wake_up_all(wq) lx_emul_wake_up(wq)
#define wake_up_interruptible(wq) lx_emul_wake_up(wq)
#define wake_up_interruptible_all(wq) lx_emul_wake_up(wq)
#define wake_up_interruptible_sync(wq) lx_emul_wake_up(wq)
#define wake_up_locked(wq) lx_emul_wake_up(wq)
bool lx_emul_waitqueue_active(struct wait_queue_head* wq);
#define waitqueue_active(wq) lx_emul_waitqueue_active(wq)
#define wq_has_sleeper(wq) lx_emul_waitqueue_active(wq)

/* Blocks on wq until woken or `timeout` jiffies (MAX_SCHEDULE_TIMEOUT: forever) passed; returns
 * the remaining jiffies like schedule_timeout(). */
long lx_emul_wait_queue_block(struct wait_queue_head* wq, long timeout, const char* why);

#define wait_event(wq_head, condition)                                                             \
    do {                                                                                           \
        while (!(condition))                                                                       \
            lx_emul_wait_queue_block(&(wq_head), MAX_SCHEDULE_TIMEOUT, "wait_event");              \
    } while (0)
#define wait_event_timeout(wq_head, condition, timeout)                                            \
    ({                                                                                             \
        long __lx_ret = (long)(timeout);                                                           \
        bool __lx_cond = (condition);                                                              \
        while (!__lx_cond && __lx_ret) {                                                           \
            __lx_ret = lx_emul_wait_queue_block(&(wq_head), __lx_ret, "wait_event_timeout");       \
            __lx_cond = (condition);                                                               \
        }                                                                                          \
        if (__lx_cond && !__lx_ret)                                                                \
            __lx_ret = 1;                                                                          \
        __lx_ret;                                                                                  \
    })
#define wait_event_interruptible(wq_head, condition)                                               \
    ({                                                                                             \
        wait_event(wq_head, condition);                                                            \
        0;                                                                                         \
    })
#define wait_event_killable wait_event_interruptible
#define wait_event_interruptible_timeout wait_event_timeout
#define wait_event_killable_timeout wait_event_timeout

#endif /* LX_EMUL_WAIT_H */
