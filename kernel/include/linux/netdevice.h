/* SPDX-License-Identifier: MIT */
#include <lx_emul/netdevice.h>
