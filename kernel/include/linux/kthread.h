/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/kthread.h> is emulated by lx_emul. */
#include <lx_emul/sched.h>
