/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/slab.h> is emulated by lx_emul. */
#include <lx_emul/mm.h>
