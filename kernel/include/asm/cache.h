/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <asm/cache.h> is emulated by lx_emul. */
#include <lx_emul/kernel.h>
