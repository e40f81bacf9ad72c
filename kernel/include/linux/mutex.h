/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/mutex.h> is emulated by lx_emul. */
#include <lx_emul/sync.h>
