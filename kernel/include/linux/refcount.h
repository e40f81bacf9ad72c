/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/refcount.h> is emulated by lx_emul. */
#include <lx_emul/atomic.h>
