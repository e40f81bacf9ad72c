/* SPDX-License-Identifier: MIT */
#include <lx_emul/firmware.h>
