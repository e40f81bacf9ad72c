/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/iopoll.h> is emulated by lx_emul. */
#include <lx_emul/iopoll.h>
