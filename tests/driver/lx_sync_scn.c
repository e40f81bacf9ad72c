// SPDX-License-Identifier: MIT
/* Scenarios for completions, mutexes, spinlocks and kthreads. */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

#include <lx_kit/lx_kit.h>

#include "lx_scenarios.h"

static struct completion comp; /* zero-initialised, like kzalloc'd driver state */

void lx_scn_completion_timeout(void* arg)
{
    (void)arg;
    init_completion(&comp);
    lx_test_record((long)wait_for_completion_timeout(&comp, msecs_to_jiffies(20)));
}

void lx_scn_completion_early_waiter(void* arg)
{
    (void)arg;
    lx_test_record((long)wait_for_completion_timeout(&comp, msecs_to_jiffies(20)));
}

void lx_scn_completion_early_completer(void* arg)
{
    (void)arg;
    lx_kit_sleep_until_ns(6000000); /* 6 ms = inside jiffy 1 */
    complete(&comp);
}

void lx_scn_completion_count(void* arg)
{
    (void)arg;
    init_completion(&comp);
    complete(&comp);
    complete(&comp);
    complete(&comp);
    for (int i = 0; i < 4; i++)
        lx_test_record((long)wait_for_completion_timeout(&comp, 1));
}

/* ---- mutex ---- */
static struct mutex lock; /* never mutex_init'ed: zero-initialised must work */

void lx_scn_mutex_holder(void* arg)
{
    (void)arg;
    mutex_lock(&lock);
    lx_test_record(0);
    usleep_range(1000, 1000);
    mutex_unlock(&lock);
}

void lx_scn_mutex_contender(void* arg)
{
    long id = (long)(intptr_t)arg;
    lx_kit_sleep_until_ns((uint64_t)id * 100000); /* contenders arrive in id order */
    mutex_lock(&lock);
    lx_test_record(id);
    usleep_range(10, 10);
    mutex_unlock(&lock);
}

/* A real-time task that takes the mutex again right after releasing it, as a threaded interrupt
 * handler does when its line is still active, against a normal task waiting for it. */
void lx_scn_mutex_rt_relocker(void* arg)
{
    (void)arg;
    lx_kit_task_set_rt(lx_kit_task_current(), 1);
    for (long round = 10; round < 13; round++) {
        mutex_lock(&lock);
        lx_test_record(round);
        if (round < 12)
            usleep_range(1000, 1000);
        mutex_unlock(&lock);
    }
}

void lx_scn_mutex_normal_waiter(void* arg)
{
    (void)arg;
    lx_kit_sleep_until_ns(100000);
    mutex_lock(&lock);
    lx_test_record(1);
    usleep_range(10, 10);
    mutex_unlock(&lock);
}

void lx_scn_mutex_recursive(void* arg)
{
    (void)arg;
    mutex_lock(&lock);
    mutex_lock(&lock);
}

void lx_scn_mutex_foreign_unlock_a(void* arg)
{
    (void)arg;
    mutex_lock(&lock);
    usleep_range(1000, 1000);
}

void lx_scn_mutex_foreign_unlock_b(void* arg)
{
    (void)arg;
    usleep_range(100, 100);
    mutex_unlock(&lock);
}

static DEFINE_SPINLOCK(slock);

void lx_scn_sleep_in_atomic(void* arg)
{
    (void)arg;
    spin_lock_bh(&slock);
    msleep(1);
    spin_unlock_bh(&slock);
}

/* ---- kthread ---- */
int lx_test_kthread_iterations;
int lx_test_kthread_result;

static int loop_thread(void* data)
{
    (void)data;
    while (!kthread_should_stop()) {
        lx_test_kthread_iterations++;
        lx_test_record(lx_test_kthread_iterations);
        schedule();
    }
    return 42;
}

void lx_scn_kthread_stopper(void* arg)
{
    (void)arg;
    struct task_struct* k = kthread_run(loop_thread, NULL, "lx_loop%d", 1);
    if (IS_ERR(k))
        return;
    lx_kit_sleep_until_ns(10000000);
    lx_test_kthread_result = kthread_stop(k);
    lx_test_record(-1);
}

/* ---- spinlock contention and BH-enable hooks ---- */
static DEFINE_SPINLOCK(contended);

static void bh_hook(void) { lx_test_record(77); }

void lx_scn_spin_holder(void* arg)
{
    (void)arg;
    lx_emul_register_bh_enable_hook(bh_hook);
    spin_lock_bh(&contended);
    udelay(100); /* busy-waits with the lock held (like ks8851_par's TX poll) */
    spin_unlock_bh(&contended); /* BH back on: the hook runs here */
    lx_test_record(1);
}

void lx_scn_spin_contender(void* arg)
{
    (void)arg;
    lx_kit_sleep_until_ns(10000);
    spin_lock(&contended); /* spins until the holder unlocks at 100 us */
    lx_test_record(2);
    spin_unlock(&contended);
}
