/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/completion.h> is emulated by lx_emul. */
#include <lx_emul/wait.h>
