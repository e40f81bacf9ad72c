/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_ASM_CURRENT_H
#define _NICSIM_ASM_CURRENT_H
/* The running lx_kit task (an SC_THREAD) and its task_struct. */
struct task_struct;
struct task_struct *lx_emul_current_task(void);
#define get_current() lx_emul_current_task()
#define current get_current()
#endif
