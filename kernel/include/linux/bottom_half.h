/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/bottom_half.h> is emulated by lx_emul. */
#include <lx_emul/sync.h>
