/* SPDX-License-Identifier: MIT */
#include <lx_emul/if_ether.h>
