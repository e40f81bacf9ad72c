/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/wait.h> is emulated by lx_emul. */
#include <lx_emul/wait.h>
