/* SPDX-License-Identifier: MIT */
#include <lx_emul/mii.h>
