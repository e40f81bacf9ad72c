/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/bug.h> is emulated by lx_emul. */
#include <lx_emul/bug.h>
