// SPDX-License-Identifier: MIT
/* lx_emul_real: the busy and sleeping delays below asm-generic/delay.h and linux/delay.h. The
 * constant udelay(n) arrives as n * 0x10c7 "loops" (2^32 / 10^6 rounded up) and ndelay(n) as
 * n * 5: one loop is 2^-32 s of busy CPU here, so udelay(n) is n us exactly (for n below 147,
 * where the rounding stays under 1 ns) and a constant ndelay(n) 1.16 n ns, as on an arch that
 * uses the generic delay. The sleeps are lx_emul's (lx_emul_usleep_range). */
#include <linux/delay.h>

#include <lx_emul/shared.h>

#include "internal.h"

void __const_udelay(unsigned long xloops)
{
    lx_kit_busy_wait_ns((u64)(((unsigned __int128)xloops * 1000000000u) >> 32));
}

void __udelay(unsigned long usecs) { lx_kit_busy_wait_ns((u64)usecs * 1000u); }
void __ndelay(unsigned long nsecs) { lx_kit_busy_wait_ns(nsecs); }

void usleep_range_state(unsigned long min, unsigned long max, unsigned int state)
{
    (void)state; /* no signals: interruptible and uninterruptible sleeps are alike */
    lx_real_might_sleep("usleep_range");
    lx_emul_usleep_range(min, max);
}
