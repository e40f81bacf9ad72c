/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_ASM_PGTABLE_H
#define _NICSIM_ASM_PGTABLE_H
/* No MMU: memory is the simulator process's heap (lx_emul/mm.c); the page-table types and
 * protections exist for the headers, nothing maps or walks them. */
#include <asm-generic/pgtable-nopud.h>
#define PAGE_KERNEL __pgprot(0)
#define PAGE_NONE __pgprot(0)
#define PAGE_SHARED __pgprot(0)
#define PAGE_COPY __pgprot(0)
#define PAGE_READONLY __pgprot(0)
#define swapper_pg_dir ((pgd_t *)0)
#define pgprot_noncached(p) (p)
#define pgprot_writecombine(p) (p)
#define kern_addr_valid(addr) 1
#define VMALLOC_START 0UL
#define VMALLOC_END (~0UL)
#define io_remap_pfn_range remap_pfn_range
#endif
