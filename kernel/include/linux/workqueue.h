/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/workqueue.h> is emulated by lx_emul. */
#include <lx_emul/workqueue.h>
