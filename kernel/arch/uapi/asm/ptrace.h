/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_UAPI_ASM_PTRACE_H
#define _NICSIM_UAPI_ASM_PTRACE_H
/* No user mode: see asm/ptrace.h. */
#endif
