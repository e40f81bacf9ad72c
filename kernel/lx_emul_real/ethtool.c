// SPDX-License-Identifier: MIT
/* lx_emul_real: the conversions between ethtool's legacy 32-bit link-mode masks and its link-mode
 * bitmaps, which the tree's drivers/net/mii.c (compiled into this library unmodified) uses for
 * its ksettings: the legacy mask is the bitmap's first 32 modes. */
#include <linux/ethtool.h>
#include <linux/linkmode.h>

#include "internal.h"

void ethtool_convert_legacy_u32_to_link_mode(unsigned long *dst, u32 legacy_u32)
{
    linkmode_zero(dst);
    dst[0] = legacy_u32;
}

/* False when the bitmap has a mode the legacy mask cannot hold (the mask is then incomplete). */
bool ethtool_convert_link_mode_to_legacy_u32(u32 *legacy_u32, const unsigned long *src)
{
    bool complete = (src[0] >> 32) == 0;
    for (unsigned int i = 1; i < BITS_TO_LONGS(__ETHTOOL_LINK_MODE_MASK_NBITS); i++)
        complete &= src[i] == 0;
    *legacy_u32 = (u32)src[0];
    return complete;
}
