/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/list.h> is emulated by lx_emul. */
#include <lx_emul/list.h>
