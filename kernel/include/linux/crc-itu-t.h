/* SPDX-License-Identifier: MIT */
#include <lx_emul/crc.h>
