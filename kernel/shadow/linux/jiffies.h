/* SPDX-License-Identifier: MIT */
/* Time shadow: the tick rate is the platform profile's kernel.hz at run time (lx_kit), not the
 * config's nominal CONFIG_HZ. The tree's own jiffies.h is included with its two compile-time
 * conversions renamed out of the way; msecs_to_jiffies and usecs_to_jiffies are then the
 * emulation's functions of the run-time rate, and HZ reads that rate, in every header and file
 * that uses them after this one. (A `#if HZ` after this header fails to compile: no driver has
 * one; net/tcp.h does, for stage 3.) */
#ifndef _NICSIM_SHADOW_LINUX_JIFFIES_H
#define _NICSIM_SHADOW_LINUX_JIFFIES_H

#define msecs_to_jiffies nicsim_nominal_msecs_to_jiffies
#define usecs_to_jiffies nicsim_nominal_usecs_to_jiffies
#include_next <linux/jiffies.h>
#undef msecs_to_jiffies
#undef usecs_to_jiffies

unsigned long msecs_to_jiffies(const unsigned int m);
unsigned long usecs_to_jiffies(const unsigned int u);
unsigned long lx_emul_hz(void);
#undef HZ
#define HZ lx_emul_hz()

#endif
