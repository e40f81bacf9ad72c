/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/ktime.h> is emulated by lx_emul. */
#include <lx_emul/time.h>
