/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/sched/signal.h> is emulated by lx_emul. */
#include <lx_emul/sched.h>
