/* SPDX-License-Identifier: MIT */
#include <lx_emul/ieee80211.h>
