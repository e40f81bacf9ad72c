/* SPDX-License-Identifier: MIT */
#include <lx_emul/inet.h>
