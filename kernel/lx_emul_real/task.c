// SPDX-License-Identifier: MIT
/* lx_emul_real: `current` (asm/current.h) and the BH re-enable behind local_bh_enable. Each lx_kit
 * task gets a real struct task_struct on first use (lx_kit's second task slot: the shadow-header
 * emulation keeps its own in the first); its thread_info's preempt_count is where the real
 * headers count BH-disabled and IRQ context. */
#include <linux/bottom_half.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <lx_emul/shared.h>

#include "internal.h"

static pid_t next_pid = 1;

struct task_struct *lx_real_task(struct lx_kit_task *kit)
{
    struct task_struct *ts = lx_kit_task_real_data(kit);
    if (ts)
        return ts;
    ts = calloc(1, sizeof(*ts));
    if (!ts)
        lx_kit_abort("out of host memory allocating a task_struct");
    ts->pid = next_pid++;
    ts->__state = TASK_RUNNING;
    strscpy(ts->comm, lx_kit_task_name(kit), sizeof(ts->comm));
    lx_kit_task_set_real_data(kit, ts);
    return ts;
}

struct task_struct *lx_emul_current_task(void)
{
    return lx_real_task(lx_kit_task_current());
}

void lx_real_might_sleep(const char *what)
{
    if (preempt_count() & (HARDIRQ_MASK | SOFTIRQ_MASK | NMI_MASK))
        lx_kit_abort("%s: sleeping function called from atomic context (task '%s', preempt "
                     "count %#x: BH disabled or IRQ context)",
                     what, current->comm, preempt_count());
    lx_emul_might_sleep(what);
}

/* local_bh_enable: the outermost one runs what BH-disabled code deferred (netif_rx processing),
 * as the kernel runs pending softirqs there. */
void __local_bh_enable_ip(unsigned long ip, unsigned int cnt)
{
    (void)ip;
    if (softirq_count() < cnt)
        lx_kit_abort("local_bh_enable without matching local_bh_disable (task '%s')",
                     current->comm);
    preempt_count_sub(cnt);
    if (!in_interrupt())
        lx_emul_run_bh_hooks();
}
