/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_ASM_STRING_H
#define _NICSIM_ASM_STRING_H
/* No arch string routines (__HAVE_ARCH_*): linux/string.h declares the generic ones, which the
 * emulation provides (kernel/lx_emul/string.c). */
#endif
