/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_ASM_IRQFLAGS_H
#define _NICSIM_ASM_IRQFLAGS_H
/* Interrupts are never off: an IRQ handler is an lx_kit task that runs only when the running
 * task blocks or yields, which kernel code never does inside local_irq_save(), so saving and
 * restoring the flags has nothing to mask and irqs_disabled() is false. */
#define ARCH_IRQ_DISABLED 0
#define ARCH_IRQ_ENABLED 1
static inline unsigned long arch_local_save_flags(void) { return ARCH_IRQ_ENABLED; }
static inline void arch_local_irq_restore(unsigned long flags) { (void)flags; }
#include <asm-generic/irqflags.h>
#endif
