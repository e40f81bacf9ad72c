/* SPDX-License-Identifier: MIT */
#include <lx_emul/device.h>
