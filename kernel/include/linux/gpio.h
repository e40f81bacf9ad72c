/* SPDX-License-Identifier: MIT */
#include <lx_emul/gpio.h>
