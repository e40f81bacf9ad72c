/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/skbuff.h> is emulated by lx_emul. */
#include <lx_emul/skbuff.h>
