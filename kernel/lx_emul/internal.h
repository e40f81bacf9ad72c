/* SPDX-License-Identifier: MIT */
/* lx_emul internals shared by the lx_emul C files (not for drivers). */
#ifndef LX_EMUL_INTERNAL_H
#define LX_EMUL_INTERNAL_H

#include <lx_emul/kernel.h>
#include <lx_emul/sched.h>
#include <lx_kit/lx_kit.h>
#include <lx_emul/shared.h>

/* Atomic-context depth of the calling task (spinlocks, BH off, hard-IRQ/timer handlers). */
static inline void lx_emul_atomic_enter(void) { ++*lx_kit_task_atomic_depth(lx_kit_task_current()); }
static inline void lx_emul_atomic_leave(void) { --*lx_kit_task_atomic_depth(lx_kit_task_current()); }

/* Simulated-time <-> jiffies. Tick J starts at ceil(J * 1e9 / HZ) ns. */
static inline unsigned long lx_emul_jiffies_at(u64 ns)
{
    return (unsigned long)((unsigned __int128)ns * lx_kit_hz() / 1000000000u);
}
static inline u64 lx_emul_tick_start_ns(unsigned long j)
{
    unsigned __int128 num = (unsigned __int128)j * 1000000000u;
    return (u64)((num + lx_kit_hz() - 1) / lx_kit_hz());
}

/* Blocks on w until notified or until the tick jiffies+timeout starts (schedule_timeout
 * semantics; MAX_SCHEDULE_TIMEOUT: no timeout). Returns the remaining jiffies (>= 0). */
long lx_emul_block_jiffies(struct lx_kit_wait* w, long timeout, const char* why);

/* Lazily allocates the wait handle behind a zero-initialised kernel object. */
static inline struct lx_kit_wait* lx_emul_waitq(struct lx_kit_wait** slot, const char* what)
{
    if (!*slot)
        *slot = lx_kit_wait_alloc(what);
    return *slot;
}

#endif /* LX_EMUL_INTERNAL_H */
