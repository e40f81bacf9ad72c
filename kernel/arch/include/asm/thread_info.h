/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_ASM_THREAD_INFO_H
#define _NICSIM_ASM_THREAD_INFO_H
/* Tasks are lx_kit's SC_THREADs (CONFIG_THREAD_INFO_IN_TASK: the thread_info is the first member
 * of the task_struct). The TIF flags exist only as values the headers test; nothing sets them
 * asynchronously. preempt_count is where asm-generic/preempt.h keeps the context (hard IRQ,
 * softirq, BH disabled), so in_interrupt() and friends answer from it as in the kernel. */
struct thread_info {
    unsigned long flags;
    unsigned long syscall_work;
    u32 cpu;
    int preempt_count;
};
#define INIT_THREAD_INFO(tsk) { .flags = 0 }
#define THREAD_SIZE (16 * 1024)
#define TIF_SIGPENDING 0
#define TIF_NEED_RESCHED 1
#define TIF_NOTIFY_RESUME 2
#define TIF_NOTIFY_SIGNAL 3
#define TIF_MEMDIE 4
#define TIF_POLLING_NRFLAG 5
#define TIF_RESTORE_SIGMASK 6
#define _TIF_SIGPENDING (1 << TIF_SIGPENDING)
#define _TIF_NEED_RESCHED (1 << TIF_NEED_RESCHED)
#define _TIF_NOTIFY_RESUME (1 << TIF_NOTIFY_RESUME)
#define _TIF_NOTIFY_SIGNAL (1 << TIF_NOTIFY_SIGNAL)
#define _TIF_POLLING_NRFLAG (1 << TIF_POLLING_NRFLAG)
#endif
