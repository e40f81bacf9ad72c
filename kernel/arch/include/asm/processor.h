/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_ASM_PROCESSOR_H
#define _NICSIM_ASM_PROCESSOR_H
/* The arch's CPU: one cooperative scheduler in a user process. cpu_relax() in a polling loop is
 * a compiler barrier only: busy-waits advance simulated time through udelay/ktime (lx_kit). */
struct thread_struct { unsigned long unused; };
#define INIT_THREAD { 0 }
#define TASK_SIZE (~0UL)
#define TASK_SIZE_MAX TASK_SIZE
#define STACK_TOP TASK_SIZE
#define STACK_TOP_MAX TASK_SIZE
#define cpu_relax() __asm__ __volatile__("" ::: "memory")
#define task_pt_regs(tsk) ((struct pt_regs *)0)
#endif
