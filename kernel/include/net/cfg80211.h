/* SPDX-License-Identifier: MIT */
#include <lx_emul/cfg80211.h>
