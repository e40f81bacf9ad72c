/* SPDX-License-Identifier: MIT */
#include <lx_emul/io.h>
