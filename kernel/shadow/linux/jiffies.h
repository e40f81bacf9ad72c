/* SPDX-License-Identifier: MIT */
/* Time shadow: the tick rate is the platform profile's kernel.hz at run time (lx_kit), not the
 * config's nominal CONFIG_HZ, and the tick count is simulated time read when it is used. The
 * tree's own jiffies.h is included with its two compile-time conversions and its tick variables
 * renamed out of the way; msecs_to_jiffies and usecs_to_jiffies are then the emulation's
 * functions of the run-time rate, HZ reads that rate, and `jiffies`, `jiffies_64` and
 * get_jiffies_64() read the tick of the current simulated time (lx_emul_jiffies(): the
 * variable the kernel's timer interrupt advances has no interrupt here), in every header and
 * file that uses them after this one. (A `#if HZ` after this header fails to compile: no driver
 * has one; net/tcp.h does, for stage 3.) */
#ifndef _NICSIM_SHADOW_LINUX_JIFFIES_H
#define _NICSIM_SHADOW_LINUX_JIFFIES_H

#define msecs_to_jiffies nicsim_nominal_msecs_to_jiffies
#define usecs_to_jiffies nicsim_nominal_usecs_to_jiffies
#define jiffies nicsim_nominal_jiffies
#define jiffies_64 nicsim_nominal_jiffies_64
#define get_jiffies_64 nicsim_nominal_get_jiffies_64
#include_next <linux/jiffies.h>
#undef msecs_to_jiffies
#undef usecs_to_jiffies
#undef jiffies
#undef jiffies_64
#undef get_jiffies_64

unsigned long msecs_to_jiffies(const unsigned int m);
unsigned long usecs_to_jiffies(const unsigned int u);
unsigned long lx_emul_hz(void);
#undef HZ
#define HZ lx_emul_hz()
unsigned long lx_emul_jiffies(void);
#define jiffies lx_emul_jiffies()
#define jiffies_64 ((u64)lx_emul_jiffies())
static inline u64 get_jiffies_64(void) { return lx_emul_jiffies(); }

#endif
