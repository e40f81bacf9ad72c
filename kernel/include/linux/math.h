/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/math.h> is emulated by lx_emul. */
#include <lx_emul/kernel.h>
