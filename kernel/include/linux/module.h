/* SPDX-License-Identifier: MIT */
/* Forwarding header: the kernel's <linux/module.h> is emulated by lx_emul. */
#include <lx_emul/module.h>
#include <lx_emul/kernel.h>
#include <lx_emul/list.h>
