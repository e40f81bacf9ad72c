/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/err.h> is emulated by lx_emul. */
#include <lx_emul/err.h>
