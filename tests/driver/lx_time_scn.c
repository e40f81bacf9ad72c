// SPDX-License-Identifier: MIT
/* Scenarios for time: sleeps, delays, jiffies, timers. */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/timer.h>

#include <lx_kit/lx_kit.h>

#include "lx_scenarios.h"

struct lx_test_events lx_test_ev;

void lx_test_record(long v)
{
    if (lx_test_ev.n < LX_TEST_MAX_EVENTS) {
        lx_test_ev.t[lx_test_ev.n] = (uint64_t)ktime_get();
        lx_test_ev.v[lx_test_ev.n] = v;
        lx_test_ev.n++;
    }
}

unsigned long lx_test_msecs_to_jiffies(unsigned ms) { return msecs_to_jiffies(ms); }
unsigned long lx_test_usecs_to_jiffies(unsigned us) { return usecs_to_jiffies(us); }
unsigned long lx_test_jiffies(void) { return jiffies; }

void lx_scn_usleep_range(void* arg)
{
    (void)arg;
    lx_test_record(0);
    usleep_range(2000, 2500);
    lx_test_record(1);
}

void lx_scn_msleep(void* arg)
{
    (void)arg;
    lx_kit_sleep_until_ns(1000000); /* start between ticks: t = 1 ms, jiffies = 0 */
    msleep(1);
    lx_test_record(1);
    msleep(10);
    lx_test_record(10);
}

void lx_scn_udelay(void* arg)
{
    (void)arg;
    udelay(5);
    lx_test_record(5);
    mdelay(1);
    lx_test_record(1000);
    ndelay(300);
    lx_test_record(300);
}

struct test_timer {
    struct timer_list timer;
    long id;
};
static struct test_timer timers[3];

static void timer_fn(struct timer_list* t)
{
    struct test_timer* tt = from_timer(tt, t, timer);
    lx_test_record(tt->id);
}

void lx_scn_timers(void* arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        timer_setup(&timers[i].timer, timer_fn, 0);
        timers[i].id = i;
    }
    lx_kit_sleep_until_ns(1000000); /* t = 1 ms, jiffies = 0 */
    mod_timer(&timers[0].timer, jiffies + 3);      /* fires at tick 3 = 12 ms */
    mod_timer(&timers[1].timer, jiffies + 1);      /* would fire at 4 ms: deleted below */
    mod_timer(&timers[2].timer, jiffies - 5);      /* already due: next tick, 4 ms */
    lx_test_record(100 + del_timer(&timers[1].timer));         /* 101: was pending */
    lx_test_record(200 + timer_pending(&timers[0].timer));     /* 201 */
    msleep(20);
    lx_test_record(300 + del_timer_sync(&timers[0].timer));    /* 300: already fired */
}
