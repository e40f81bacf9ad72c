/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/sched.h> is emulated by lx_emul. */
#include <lx_emul/sched.h>
