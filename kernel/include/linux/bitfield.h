/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/bitfield.h> is emulated by lx_emul. */
#include <lx_emul/bitops.h>
