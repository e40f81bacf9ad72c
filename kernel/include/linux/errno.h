/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/errno.h> is emulated by lx_emul. */
#include <lx_emul/errno.h>
