/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/time.h> is emulated by lx_emul. */
#include <lx_emul/time.h>
