/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_ASM_PTRACE_H
#define _NICSIM_ASM_PTRACE_H
/* No user mode and no trap frames: a register set exists only as a type. */
struct pt_regs { unsigned long regs[2]; };
#define user_mode(regs) 0
#define instruction_pointer(regs) 0UL
#define profile_pc(regs) 0UL
#define user_stack_pointer(regs) 0UL
#endif
