/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/string.h> is emulated by lx_emul. */
#include <lx_emul/string.h>
