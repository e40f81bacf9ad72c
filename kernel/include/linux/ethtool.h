/* SPDX-License-Identifier: MIT */
#include <lx_emul/ethtool.h>
