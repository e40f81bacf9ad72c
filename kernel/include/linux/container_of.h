/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/container_of.h> is emulated by lx_emul. */
#include <lx_emul/container_of.h>
