/* SPDX-License-Identifier: MIT */
#include <lx_emul/spi.h>
