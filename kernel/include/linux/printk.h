/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/printk.h> is emulated by lx_emul. */
#include <lx_emul/printk.h>
