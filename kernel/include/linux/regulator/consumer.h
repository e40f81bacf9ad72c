/* SPDX-License-Identifier: MIT */
#include <lx_emul/regulator.h>
