/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <asm/div64.h> is emulated by lx_emul. */
#include <lx_emul/kernel.h>
