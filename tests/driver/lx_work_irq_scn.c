// SPDX-License-Identifier: MIT
/* Scenarios for workqueues and threaded interrupts. */
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/workqueue.h>

#include <lx_kit/lx_kit.h>

#include "lx_scenarios.h"

int lx_test_work_runs;
static struct work_struct work_a;

static void work_a_fn(struct work_struct* w)
{
    (void)w;
    lx_test_work_runs++;
    lx_test_record(1000 + lx_test_work_runs); /* start of run n */
    usleep_range(1000, 1000);
}

void lx_scn_work_pending(void* arg)
{
    (void)arg;
    INIT_WORK(&work_a, work_a_fn);
    lx_test_record(schedule_work(&work_a));          /* 1: queued */
    lx_test_record(schedule_work(&work_a));          /* 0: already pending */
    lx_kit_sleep_until_ns(500000);                   /* first run is in progress */
    lx_test_record(10 + work_pending(&work_a));      /* 10: running, not pending */
    lx_test_record(schedule_work(&work_a));          /* 1: queued again while running */
    lx_test_record(20 + flush_work(&work_a));        /* 21 at 2 ms: waited for the second run */
    lx_test_record(30 + flush_work(&work_a));        /* 30: idle, nothing to wait for */
    lx_test_record(40 + cancel_work_sync(&work_a));  /* 40: nothing pending */
}

static struct work_struct work_b, work_c;
static struct workqueue_struct* ordered;

static void work_b_fn(struct work_struct* w)
{
    lx_test_record(w == &work_b ? 2 : 3);
    usleep_range(1000, 1000);
}

void lx_scn_work_ordered(void* arg)
{
    (void)arg;
    INIT_WORK(&work_b, work_b_fn);
    INIT_WORK(&work_c, work_b_fn);
    ordered = alloc_ordered_workqueue("lx_ordered", 0);
    queue_work(ordered, &work_b);
    queue_work(ordered, &work_c); /* runs after work_b: starts at 1 ms */
    flush_workqueue(ordered);
    lx_test_record(4);
    schedule_work(&work_b);
    schedule_work(&work_c); /* system_wq adds a worker: both start at 2 ms */
    flush_work(&work_b);
    flush_work(&work_c);
    lx_test_record(5);
    destroy_workqueue(ordered);
}

/* ---- threaded IRQ ---- */
unsigned lx_test_irq_hold_us = 1000;
int lx_test_irq_request_rc = 1;
static int irq_dev;
static long irq_run;

static irqreturn_t irq_thread_fn(int irq, void* dev)
{
    (void)irq;
    (void)dev;
    lx_test_record(1000 + irq_run++);
    usleep_range(lx_test_irq_hold_us, lx_test_irq_hold_us);
    return IRQ_HANDLED;
}

void lx_scn_irq_request(void* arg)
{
    unsigned long flags = (unsigned long)(uintptr_t)arg;
    lx_test_irq_request_rc = request_threaded_irq(7, NULL, irq_thread_fn, flags, "lx_test",
                                                  &irq_dev);
}

unsigned long lx_test_irq_runs(void) { return lx_emul_irq_thread_runs(7); }
unsigned lx_test_irqf_falling_oneshot(void) { return IRQF_TRIGGER_FALLING | IRQF_ONESHOT; }
unsigned lx_test_irqf_low_oneshot(void) { return IRQF_TRIGGER_LOW | IRQF_ONESHOT; }
unsigned lx_test_irqf_oneshot(void) { return IRQF_ONESHOT; }
int lx_test_irq_trigger_type(void) { return irq_get_trigger_type(7); }
