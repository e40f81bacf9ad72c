/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/kconfig.h> is emulated by lx_emul. */
#include <lx_emul/compiler.h>
