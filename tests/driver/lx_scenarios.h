// SPDX-License-Identifier: MIT
// Kernel-API scenarios for the lx_emul core tests. The scenarios are C (compiled with the kernel
// flags against the shadow headers, like driver code); the GoogleTest drivers are C++ and see
// only this plain-C interface.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Events recorded by scenarios: simulated time (ns) and a value, in order.
#define LX_TEST_MAX_EVENTS 64
struct lx_test_events {
    unsigned n;
    uint64_t t[LX_TEST_MAX_EVENTS];
    long v[LX_TEST_MAX_EVENTS];
};
extern struct lx_test_events lx_test_ev;
void lx_test_record(long v);

// Scenario entry points: run as lx_kit tasks (lx_kit_task_create(name, fn, NULL)).
void lx_scn_usleep_range(void* arg);    // records 0 (start), 1 (after usleep_range(2000, 2500))
void lx_scn_msleep(void* arg);          // sleeps to 1 ms, records 1 after msleep(1), 10 after msleep(10)
void lx_scn_udelay(void* arg);          // records after udelay(5), mdelay(1), ndelay(300)
void lx_scn_timers(void* arg);          // arms timers; callbacks record their ids
unsigned long lx_test_msecs_to_jiffies(unsigned ms);
unsigned long lx_test_usecs_to_jiffies(unsigned us);
unsigned long lx_test_jiffies(void);

// lx_cpu_scn.c (compiled with -fsanitize-coverage=trace-pc, as the drivers are).
void lx_scn_cpu_init(void);
void lx_scn_cpu_burn_then_sleep(void* arg); // arg: loop iterations; records 1 after a 1 us sleep
void lx_scn_cpu_burn_then_wait(void* arg);  // arg: loop iterations; records 1 when completed
void lx_scn_cpu_complete_at(void* arg);     // arg: absolute ns; completes, records 2

void lx_scn_completion_timeout(void* arg);  // waits 20 ms for a completion nobody completes
void lx_scn_completion_early_waiter(void* arg);
void lx_scn_completion_early_completer(void* arg);
void lx_scn_completion_count(void* arg);    // 3 x complete, then 4 waits with 1-jiffy timeout
void lx_scn_mutex_holder(void* arg);
void lx_scn_mutex_rt_relocker(void* arg);
void lx_scn_mutex_normal_waiter(void* arg);
void lx_scn_mutex_contender(void* arg);     // arg: (void*)(intptr_t)id; start delay = id * 100 us
void lx_scn_mutex_recursive(void* arg);
void lx_scn_mutex_foreign_unlock_a(void* arg);
void lx_scn_mutex_foreign_unlock_b(void* arg);
void lx_scn_sleep_in_atomic(void* arg);
void lx_scn_spin_holder(void* arg);      // spin_lock_bh + udelay(100) + unlock (BH hook records 77)
void lx_scn_spin_contender(void* arg);  // spin_lock at 10 us, records 2 when it gets the lock
void lx_scn_kthread_stopper(void* arg);     // starts a kthread, stops it at 10 ms
extern int lx_test_kthread_iterations;
extern int lx_test_kthread_result;

void lx_scn_work_pending(void* arg);   // pending/running/flush semantics on the system workqueue
void lx_scn_work_ordered(void* arg);   // two works on an ordered wq vs the system wq
extern int lx_test_work_runs;

// IRQ: the thread handler records (1000 + run index) at entry and sleeps hold_us.
void lx_scn_irq_request(void* arg);    // arg: (void*)(uintptr_t)flags; irq number 7
extern unsigned lx_test_irq_hold_us;
extern int lx_test_irq_request_rc;
unsigned long lx_test_irq_runs(void);
unsigned lx_test_irqf_falling_oneshot(void);
unsigned lx_test_irqf_low_oneshot(void);
unsigned lx_test_irqf_oneshot(void);    // no trigger flags: the line's configured trigger
int lx_test_irq_trigger_type(void);     // irq_get_trigger_type(7)

// skb guards (no simulation needed: called directly from the test).
void lx_test_skb_head_underrun(void);
void lx_test_skb_tail_overrun(unsigned beyond_end);  // writes one byte at end + beyond_end
void lx_test_skb_double_free(void);
void lx_test_skb_leak_one(void);                     // allocates from "lx_test_skb_leak_one"
void lx_test_skb_put_past_end(void);
unsigned lx_test_skb_rx_headroom(void);              // netdev_alloc_skb_ip_align headroom
int lx_test_skb_queue(void);                         // queue ops; returns 0 if all checks pass
void lx_test_kmalloc_leak(void);                     // allocates from "lx_test_kmalloc_leak"
void lx_test_kfree_twice(void);
int lx_test_kmalloc_contents(void); // nonzero unless kmalloc gives POISON_INUSE, kzalloc zeros

// printk / formatting
int lx_test_format(char* buf, size_t size, int which);
void lx_test_dev_err(void);
void lx_test_call_dummy(void);
void lx_scn_call_dummy_at_1ms(void* arg);  // records 1 at 4 ms, then calls the 'spi_sync' dummy

// Kernel header semantics (FIELD_PREP, byte order, htons in case labels, list.h); returns a
// bitmask of failed checks, 0 if all pass.
int lx_test_header_semantics(void);

// module registry: the test module has params "level" (int) and "verbose" (bool, named).
int lx_test_module_level(void);
int lx_test_module_verbose(void);

#ifdef __cplusplus
}
#endif
