/* SPDX-License-Identifier: MIT */
#include <lx_emul/etherdevice.h>
