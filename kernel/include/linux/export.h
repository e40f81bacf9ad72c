/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/export.h> is emulated by lx_emul. */
#include <lx_emul/module.h>
