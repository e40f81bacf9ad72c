/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/compiler_types.h> is emulated by lx_emul. */
#include <lx_emul/compiler.h>
