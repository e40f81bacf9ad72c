/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/stddef.h> is emulated by lx_emul. */
#include <lx_emul/types.h>
#include <lx_emul/container_of.h>
