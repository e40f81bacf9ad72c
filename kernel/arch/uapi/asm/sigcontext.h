/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_UAPI_ASM_SIGCONTEXT_H
#define _NICSIM_UAPI_ASM_SIGCONTEXT_H
/* No signals are delivered to user mode: the context is a type only. */
struct sigcontext { unsigned long unused; };
#endif
