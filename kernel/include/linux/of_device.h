/* SPDX-License-Identifier: MIT */
#include <lx_emul/of.h>
