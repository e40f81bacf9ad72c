/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/limits.h> is emulated by lx_emul. */
#include <lx_emul/types.h>
