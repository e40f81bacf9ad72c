/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/unaligned.h> is emulated by lx_emul. */
#include <lx_emul/byteorder.h>
