// SPDX-License-Identifier: MIT
/* lx_emul: jiffies, ktime, delays and timers on simulated time (see lx_emul/time.h). */
#include "internal.h"

#include <lx_emul/time.h>

unsigned long lx_emul_hz(void) { return lx_kit_hz(); }
unsigned long lx_emul_jiffies(void) { return lx_emul_jiffies_at(lx_kit_now_ns()); }
ktime_t ktime_get(void) { return (ktime_t)lx_kit_now_ns(); }

/* ---- conversions: round up to whole ticks like the kernel ---- */

static unsigned long ns_to_jiffies_up(u64 ns)
{
    unsigned __int128 num = (unsigned __int128)ns * lx_kit_hz();
    unsigned __int128 j = (num + 1000000000u - 1) / 1000000000u;
    return j > MAX_JIFFY_OFFSET ? MAX_JIFFY_OFFSET : (unsigned long)j;
}

unsigned long msecs_to_jiffies(const unsigned int m)
{
    if ((int)m < 0)
        return MAX_JIFFY_OFFSET;
    return ns_to_jiffies_up((u64)m * NSEC_PER_MSEC);
}

unsigned long usecs_to_jiffies(const unsigned int u)
{
    if ((int)u < 0)
        return MAX_JIFFY_OFFSET;
    return ns_to_jiffies_up((u64)u * NSEC_PER_USEC);
}

/* The kernel's nsecs_to_jiffies truncates. */
unsigned long nsecs_to_jiffies(u64 n) { return lx_emul_jiffies_at(n); }

u64 jiffies_to_nsecs(const unsigned long j)
{
    return (u64)((unsigned __int128)j * 1000000000u / lx_kit_hz());
}
unsigned int jiffies_to_msecs(const unsigned long j)
{
    return (unsigned int)(jiffies_to_nsecs(j) / NSEC_PER_MSEC);
}
unsigned int jiffies_to_usecs(const unsigned long j)
{
    return (unsigned int)(jiffies_to_nsecs(j) / NSEC_PER_USEC);
}

/* ---- delays ---- */

void lx_emul_ndelay(unsigned long ns) { lx_kit_busy_wait_ns(ns); }
void lx_emul_udelay(unsigned long us) { lx_kit_busy_wait_ns((u64)us * NSEC_PER_USEC); }
void lx_emul_mdelay(unsigned long ms) { lx_kit_busy_wait_ns((u64)ms * NSEC_PER_MSEC); }
void lx_emul_poll_relax(void) { lx_kit_busy_wait_ns(1); }

void msleep(unsigned int msecs)
{
    long timeout = (long)msecs_to_jiffies(msecs) + 1;
    lx_emul_might_sleep("msleep");
    while (timeout)
        timeout = schedule_timeout_uninterruptible(timeout);
}

unsigned long msleep_interruptible(unsigned int msecs)
{
    msleep(msecs);
    return 0;
}

void usleep_range(unsigned long min, unsigned long max) { lx_emul_usleep_range(min, max); }

void lx_emul_usleep_range(unsigned long min, unsigned long max)
{
    lx_emul_might_sleep("usleep_range");
    if (max < min)
        max = min;
    u64 span = (u64)(max - min) * NSEC_PER_USEC;
    /* schedule_hrtimeout_range() drops the range of a real-time task (its timer expires at
     * min); another task's expires in [min, max], at max when no other hrtimer interrupt comes
     * first (the slack parameter says how far past min). */
    u64 slack = lx_kit_task_is_rt(lx_kit_task_current()) ? 0 : lx_kit_usleep_slack_ns();
    u64 delay = (u64)min * NSEC_PER_USEC + (slack < span ? slack : span);
    lx_kit_sleep_until_ns(lx_kit_now_ns() + delay);
}

/* ---- timers: one softirq task runs expired timers at tick starts ---- */

static LIST_HEAD(timer_list_pending);
static struct lx_kit_wait* timer_wq;       /* softirq task waits for the next expiry */
static struct lx_kit_wait* timer_done_wq;  /* del_timer_sync waits for a running callback */
static struct lx_kit_task* timer_task;
static struct timer_list* timer_running;
static unsigned long timer_seq;

static void timer_softirq(void* arg)
{
    (void)arg;
    for (;;) {
        if (list_empty(&timer_list_pending)) {
            lx_kit_wait_block_unscheduled(timer_wq, -1, "timer softirq idle");
            continue;
        }
        struct timer_list* t = list_first_entry(&timer_list_pending, struct timer_list, entry);
        u64 now = lx_kit_now_ns();
        u64 at = lx_emul_tick_start_ns(t->fire_jiffy);
        if (now < at) {
            lx_kit_wait_block_unscheduled(timer_wq, (int64_t)(at - now), "timer softirq");
            continue;
        }
        list_del_init(&t->entry);
        t->pending = false;
        timer_running = t;
        lx_emul_atomic_enter();
        t->function(t); /* may free or re-arm t: not touched afterwards */
        lx_emul_atomic_leave();
        timer_running = NULL;
        lx_kit_wait_notify_all(timer_done_wq);
    }
}

void lx_emul_timer_setup(struct timer_list* timer, void (*func)(struct timer_list*), u32 flags)
{
    INIT_LIST_HEAD(&timer->entry);
    timer->function = func;
    timer->flags = flags;
    timer->expires = 0;
    timer->pending = false;
}

int del_timer(struct timer_list* timer)
{
    if (!timer->pending)
        return 0;
    list_del_init(&timer->entry);
    timer->pending = false;
    if (timer_wq)
        lx_kit_wait_notify_all(timer_wq);
    return 1;
}

int mod_timer(struct timer_list* timer, unsigned long expires)
{
    int was_pending = del_timer(timer);
    unsigned long next_tick = lx_emul_jiffies() + 1;
    struct timer_list* pos;

    if (!timer->function)
        lx_kit_abort("mod_timer on a timer without function (timer_setup missing)");
    if (!timer_task) {
        timer_wq = lx_kit_wait_alloc("timer softirq");
        timer_done_wq = lx_kit_wait_alloc("timer done");
        timer_task = lx_kit_task_create("ktimers", timer_softirq, NULL);
    }
    timer->expires = expires;
    /* An expiry that is already due runs at the next tick, like the kernel's timer wheel. */
    timer->fire_jiffy = time_after(expires, next_tick) ? expires : next_tick;
    timer->seq = timer_seq++;
    timer->pending = true;
    list_for_each_entry(pos, &timer_list_pending, entry) {
        if (time_after(pos->fire_jiffy, timer->fire_jiffy))
            break;
    }
    list_add_tail(&timer->entry, &pos->entry);
    lx_kit_wait_notify_all(timer_wq);
    return was_pending;
}

void add_timer(struct timer_list* timer)
{
    if (timer->pending)
        lx_kit_abort("add_timer on a pending timer (kernel BUG_ON)");
    mod_timer(timer, timer->expires);
}

int del_timer_sync(struct timer_list* timer)
{
    int ret = del_timer(timer);
    if (lx_kit_task_current() == timer_task)
        return ret; /* from its own callback context */
    while (timer_running == timer)
        lx_kit_wait_block(timer_done_wq, -1, "del_timer_sync");
    return ret;
}
