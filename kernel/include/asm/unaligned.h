/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <asm/unaligned.h> is emulated by lx_emul. */
#include <lx_emul/byteorder.h>
