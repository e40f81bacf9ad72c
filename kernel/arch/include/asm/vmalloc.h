/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_ASM_VMALLOC_H
#define _NICSIM_ASM_VMALLOC_H
/* No MMU, so no huge vmalloc mappings (linux/vmalloc.h's arch_vmap_* fallbacks apply). */
#endif
