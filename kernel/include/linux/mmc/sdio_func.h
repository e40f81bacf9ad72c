/* SPDX-License-Identifier: MIT */
#include <lx_emul/sdio.h>
