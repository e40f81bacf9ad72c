// SPDX-License-Identifier: MIT
/* lx_emul: threaded interrupt handling with ONESHOT semantics (policy in lx_emul/irq.h). */
#include <stdlib.h>

#include "internal.h"

#include <lx_emul/irq.h>

/* A level-triggered line that stays active after this many handler runs without simulated time
 * passing is an interrupt storm (the handler does not clear the source): stop with a message
 * instead of live-locking the simulation. */
#define IRQ_STORM_LIMIT 10000

struct irq_action {
    unsigned int irq;
    irq_handler_t handler;
    irq_handler_t thread_fn;
    unsigned long flags;
    const char* name;
    void* dev_id;
    struct device* devm_owner;
    struct lx_kit_irq* line;
    struct lx_kit_task* task;
    struct lx_kit_wait* idle_wq; /* disable_irq/free_irq wait for the handler to finish */
    int disable_depth;
    bool stop;
    bool exited;
    bool running;
    unsigned long runs;
    struct irq_action* next;
};

static struct irq_action* actions;

static struct irq_action* find(unsigned int irq, void* dev_id, bool any_dev)
{
    for (struct irq_action* a = actions; a; a = a->next)
        if (a->irq == irq && (any_dev || a->dev_id == dev_id))
            return a;
    return NULL;
}

static bool should_run(struct irq_action* a)
{
    return a->disable_depth == 0 && lx_kit_irq_pending(a->line);
}

static void irq_thread(void* arg)
{
    struct irq_action* a = arg;
    u64 storm_time = ~0ull;
    unsigned long storm_runs = 0;
    struct lx_kit_wait* line_wq = lx_kit_irq_waitq(a->line);

    bool ran = false; /* the thread handler ran and the thread has not slept since */
    for (;;) {
        while (!a->stop && !should_run(a)) {
            lx_kit_wait_block_unscheduled(line_wq, -1, "irq thread idle");
            ran = false;
        }
        if (a->stop)
            break;
        /* A threaded handler: hard IRQ, wake-up and switch to the thread. An interrupt that came
         * while the thread handler ran (a level line still active when it returns and the
         * oneshot unmask) finds the thread running: irq_thread() sees IRQTF_RUNTHREAD and runs
         * the handler again at once, with the hard IRQ's cost and no wake-up. Without a thread
         * the handler runs in hard-interrupt context: the hard IRQ only. */
        if (a->thread_fn && !ran)
            lx_kit_irq_enter();
        else
            lx_kit_hardirq_enter();
        if (a->stop)
            break;

        u64 now = lx_kit_now_ns();
        if (now == storm_time) {
            if (++storm_runs >= IRQ_STORM_LIMIT)
                lx_kit_abort("IRQ %u (%s): interrupt storm — the line stayed active after %d "
                             "handler runs without simulated time passing",
                             a->irq, a->name, IRQ_STORM_LIMIT);
        } else {
            storm_time = now;
            storm_runs = 0;
        }

        /* Edge: consume the latched edge now; edges during the handler latch again and cause
         * exactly one more run. Level: re-evaluated after the handler returns. */
        lx_kit_irq_ack(a->line);
        a->running = true;
        irqreturn_t ret = IRQ_WAKE_THREAD;
        if (a->handler) {
            lx_emul_atomic_enter();
            ret = a->handler((int)a->irq, a->dev_id);
            lx_emul_atomic_leave();
        }
        if (ret == IRQ_WAKE_THREAD && a->thread_fn) {
            a->runs++;
            a->thread_fn((int)a->irq, a->dev_id);
            ran = true;
            if (*lx_kit_task_atomic_depth(lx_kit_task_current()) != 0)
                lx_kit_abort("IRQ %u (%s): thread handler returned in atomic context "
                             "(unbalanced spin_lock/local_bh_disable)",
                             a->irq, a->name);
        } else if (a->handler) {
            a->runs++;
        }
        a->running = false;
        lx_kit_wait_notify_all(a->idle_wq);
    }
    a->exited = true;
    a->running = false;
    lx_kit_wait_notify_all(a->idle_wq);
}

static int do_request(unsigned int irq, irq_handler_t handler, irq_handler_t thread_fn,
                      unsigned long flags, const char* name, void* dev, struct device* owner)
{
    unsigned trigger = flags & IRQF_TRIGGER_MASK;
    char tname[48];
    char msg[200];

    if (!handler && !thread_fn)
        return -EINVAL;
    if (!handler && !(flags & IRQF_ONESHOT)) {
        /* The kernel refuses this too (the line would stay unmasked while the thread runs). */
        lx_emul_snprintf(msg, sizeof(msg),
                         "genirq: Threaded irq requested with handler=NULL and !ONESHOT for %s "
                         "(irq %u)",
                         name, irq);
        lx_kit_log(3, "genirq", msg);
        return -EINVAL;
    }
    /* __setup_irq: without trigger flags the line keeps the trigger type configured for it
     * (the board's device tree); a line with none is level-high (assumption). */
    if (trigger == IRQF_TRIGGER_NONE)
        trigger = lx_kit_irq_configured_trigger((int)irq) & IRQF_TRIGGER_MASK;
    if (trigger == IRQF_TRIGGER_NONE)
        trigger = IRQF_TRIGGER_HIGH;
    if ((trigger & (IRQF_TRIGGER_HIGH | IRQF_TRIGGER_LOW)) &&
        (trigger & (IRQF_TRIGGER_RISING | IRQF_TRIGGER_FALLING))) {
        lx_emul_snprintf(msg, sizeof(msg), "genirq: irq %u (%s): mixed edge and level trigger 0x%x",
                         irq, name, trigger);
        lx_kit_log(3, "genirq", msg);
        return -EINVAL;
    }
    struct irq_action* other = find(irq, NULL, true);
    if (other && !((flags & IRQF_SHARED) && (other->flags & IRQF_SHARED))) {
        lx_emul_snprintf(msg, sizeof(msg),
                         "genirq: Flags mismatch irq %u. %08lx (%s) vs. %08lx (%s)", irq, flags,
                         name, other->flags, other->name);
        lx_kit_log(3, "genirq", msg);
        return -EBUSY;
    }
    struct lx_kit_irq* line = lx_kit_irq_open((int)irq, trigger);
    if (!line) {
        lx_emul_snprintf(msg, sizeof(msg),
                         "request_threaded_irq(%u, %s): no interrupt source is registered for irq "
                         "%u (testbench: nicsim::lx_kit::register_irq)",
                         irq, name, irq);
        lx_kit_log(3, "genirq", msg);
        return -EINVAL;
    }
    struct irq_action* a = calloc(1, sizeof(*a));
    if (!a)
        return -ENOMEM;
    a->irq = irq;
    a->handler = handler;
    a->thread_fn = thread_fn;
    a->flags = flags;
    a->name = name;
    a->dev_id = dev;
    a->devm_owner = owner;
    a->line = line;
    a->idle_wq = lx_kit_wait_alloc("irq action");
    a->disable_depth = (flags & IRQF_NO_AUTOEN) ? 1 : 0;
    a->next = actions;
    actions = a;
    lx_emul_snprintf(tname, sizeof(tname), "irq/%u-%s", irq, name ? name : "?");
    a->task = lx_kit_task_create(tname, irq_thread, a);
    lx_kit_task_set_rt(a->task, 1); /* setup_irq_thread: sched_set_fifo() */
    return 0;
}

int request_threaded_irq(unsigned int irq, irq_handler_t handler, irq_handler_t thread_fn,
                         unsigned long flags, const char* name, void* dev)
{
    return do_request(irq, handler, thread_fn, flags, name, dev, NULL);
}

int devm_request_threaded_irq(struct device* dev, unsigned int irq, irq_handler_t handler,
                              irq_handler_t thread_fn, unsigned long irqflags,
                              const char* devname, void* dev_id)
{
    return do_request(irq, handler, thread_fn, irqflags, devname, dev_id, dev);
}

static void wait_idle(struct irq_action* a, const char* why)
{
    if (lx_kit_task_current() == a->task)
        return; /* from its own handler: the kernel would deadlock in synchronize_irq */
    while (a->running)
        lx_kit_wait_block(a->idle_wq, -1, why);
}

static void release(struct irq_action* a)
{
    if (lx_kit_task_current() == a->task)
        lx_kit_abort("free_irq(%u) called from its own handler (%s): deadlock", a->irq, a->name);
    a->stop = true;
    lx_kit_wait_notify_all(lx_kit_irq_waitq(a->line));
    while (!a->exited)
        lx_kit_wait_block(a->idle_wq, -1, "free_irq");
    for (struct irq_action** p = &actions; *p; p = &(*p)->next)
        if (*p == a) {
            *p = a->next;
            break;
        }
    lx_kit_irq_close(a->line);
    lx_kit_wait_free(a->idle_wq);
    free(a);
}

const void* free_irq(unsigned int irq, void* dev_id)
{
    struct irq_action* a = find(irq, dev_id, false);
    if (!a) {
        lx_emul_warn(__FILE__, __LINE__, __func__, "Trying to free already-free IRQ %u", irq);
        return NULL;
    }
    const char* name = a->name;
    release(a);
    return name;
}

void devm_free_irq(struct device* dev, unsigned int irq, void* dev_id)
{
    (void)dev;
    free_irq(irq, dev_id);
}

/* Called by the device emulation when a device is torn down. */
void lx_emul_irq_release_devm(struct device* dev)
{
    struct irq_action* a = actions;
    while (a) {
        struct irq_action* next = a->next;
        if (a->devm_owner == dev)
            release(a);
        a = next;
    }
}

void disable_irq_nosync(unsigned int irq)
{
    for (struct irq_action* a = actions; a; a = a->next)
        if (a->irq == irq)
            a->disable_depth++;
}

void synchronize_irq(unsigned int irq)
{
    for (struct irq_action* a = actions; a; a = a->next)
        if (a->irq == irq)
            wait_idle(a, "synchronize_irq");
}

void disable_irq(unsigned int irq)
{
    disable_irq_nosync(irq);
    synchronize_irq(irq);
}

void enable_irq(unsigned int irq)
{
    for (struct irq_action* a = actions; a; a = a->next) {
        if (a->irq != irq)
            continue;
        if (a->disable_depth == 0) {
            lx_emul_warn(__FILE__, __LINE__, __func__, "Unbalanced enable for IRQ %u", irq);
            continue;
        }
        if (--a->disable_depth == 0)
            lx_kit_wait_notify_all(lx_kit_irq_waitq(a->line));
    }
}

unsigned long lx_emul_irq_thread_runs(unsigned int irq)
{
    unsigned long n = 0;
    for (struct irq_action* a = actions; a; a = a->next)
        if (a->irq == irq)
            n += a->runs;
    return n;
}
