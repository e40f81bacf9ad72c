/* SPDX-License-Identifier: MIT */
/* linux/fcntl.h: file-control flags. Network drivers include it out of habit (enc28j60.c) and
 * use nothing from it; the shadow keeps the host's UAPI <linux/fcntl.h>, which needs kernel
 * types the emulation does not define, out of the build. */
#ifndef LX_EMUL_FCNTL_H
#define LX_EMUL_FCNTL_H
#endif
