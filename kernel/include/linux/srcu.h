/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/srcu.h> is emulated by lx_emul. */
#include <lx_emul/sync.h>
