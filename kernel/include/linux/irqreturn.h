/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/irqreturn.h> is emulated by lx_emul. */
#include <lx_emul/irq.h>
