/* SPDX-License-Identifier: MIT */
#ifndef _NICSIM_ASM_BYTEORDER_H
#define _NICSIM_ASM_BYTEORDER_H
/* nicsim's arch is little endian (x86-64 and arm64 hosts). */
#include <linux/byteorder/little_endian.h>
#endif
