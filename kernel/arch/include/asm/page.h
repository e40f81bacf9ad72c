/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_ASM_PAGE_H
#define _NICSIM_ASM_PAGE_H
/* No MMU: kernel virtual addresses are the simulator process's own; the physical address of a
 * kernel pointer is its value (nothing DMAs to it: the buses copy through the bridges). */
#define PAGE_SHIFT 12
#define PAGE_SIZE (_AC(1, UL) << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_OFFSET 0UL
#define ARCH_PFN_OFFSET 0UL

#ifndef __ASSEMBLY__
typedef struct { unsigned long pte; } pte_t;
typedef struct { unsigned long pmd; } pmd_t;
typedef struct { unsigned long pgd; } pgd_t;
typedef struct { unsigned long pgprot; } pgprot_t;
typedef struct page *pgtable_t;
#define pte_val(x) ((x).pte)
#define pmd_val(x) ((x).pmd)
#define pgd_val(x) ((x).pgd)
#define pgprot_val(x) ((x).pgprot)
#define __pte(x) ((pte_t){ (x) })
#define __pmd(x) ((pmd_t){ (x) })
#define __pgd(x) ((pgd_t){ (x) })
#define __pgprot(x) ((pgprot_t){ (x) })

#define clear_page(p) __builtin_memset((p), 0, PAGE_SIZE)
#define copy_page(to, from) __builtin_memcpy((to), (from), PAGE_SIZE)
#define clear_user_page(p, vaddr, pg) clear_page(p)
#define copy_user_page(to, from, vaddr, pg) copy_page(to, from)

#define __va(x) ((void *)(unsigned long)(x))
#define __pa(x) ((unsigned long)(x))
#define virt_to_pfn(kaddr) (__pa(kaddr) >> PAGE_SHIFT)
#define pfn_to_virt(pfn) __va((pfn) << PAGE_SHIFT)
#define virt_to_page(addr) pfn_to_page(virt_to_pfn(addr))
#define page_to_virt(page) pfn_to_virt(page_to_pfn(page))
#define page_to_phys(page) ((dma_addr_t)page_to_pfn(page) << PAGE_SHIFT)
#define pfn_valid(pfn) ((pfn) < max_mapnr)
#define virt_addr_valid(kaddr) pfn_valid(virt_to_pfn(kaddr))
extern unsigned long max_mapnr;

#include <asm-generic/memory_model.h>
#include <asm-generic/getorder.h>
#endif
#endif
