/* SPDX-License-Identifier: MIT */
#include <lx_emul/eeprom_93cx6.h>
