/* SPDX-License-Identifier: MIT */
#include <lx_emul/clk.h>
