/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/timer.h> is emulated by lx_emul. */
#include <lx_emul/time.h>
