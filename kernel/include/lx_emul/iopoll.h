/* SPDX-License-Identifier: MIT */
/* lx_emul: register polling helpers (linux/iopoll.h), kernel 6.1 semantics: poll op(args) into
 * val until cond holds or timeout_us elapsed (ktime), with udelay (atomic variants) or
 * usleep_range((sleep_us >> 2) + 1, sleep_us) between polls; one last read after the timeout.
 * Evaluates to 0 or -ETIMEDOUT. */
#ifndef LX_EMUL_IOPOLL_H
#define LX_EMUL_IOPOLL_H

#include <lx_emul/errno.h>
#include <lx_emul/time.h>

#define read_poll_timeout(op, val, cond, sleep_us, timeout_us, sleep_before_read, args...)         \
    ({                                                                                             \
        u64 __lx_timeout_us = (timeout_us);                                                        \
        unsigned long __lx_sleep_us = (sleep_us);                                                  \
        ktime_t __lx_timeout = ktime_add_us(ktime_get(), __lx_timeout_us);                         \
        if ((sleep_before_read) && __lx_sleep_us)                                                  \
            usleep_range((__lx_sleep_us >> 2) + 1, __lx_sleep_us);                                 \
        for (;;) {                                                                                 \
            (val) = op(args);                                                                      \
            if (cond)                                                                              \
                break;                                                                             \
            if (__lx_timeout_us && ktime_compare(ktime_get(), __lx_timeout) > 0) {                 \
                (val) = op(args);                                                                  \
                break;                                                                             \
            }                                                                                      \
            if (__lx_sleep_us)                                                                     \
                usleep_range((__lx_sleep_us >> 2) + 1, __lx_sleep_us);                             \
            else                                                                                   \
                lx_emul_poll_relax();                                                              \
        }                                                                                          \
        (cond) ? 0 : -ETIMEDOUT;                                                                   \
    })

#define read_poll_timeout_atomic(op, val, cond, delay_us, timeout_us, delay_before_read, args...)  \
    ({                                                                                             \
        u64 __lx_timeout_us = (timeout_us);                                                        \
        unsigned long __lx_delay_us = (delay_us);                                                  \
        ktime_t __lx_timeout = ktime_add_us(ktime_get(), __lx_timeout_us);                         \
        if ((delay_before_read) && __lx_delay_us)                                                  \
            udelay(__lx_delay_us);                                                                 \
        for (;;) {                                                                                 \
            (val) = op(args);                                                                      \
            if (cond)                                                                              \
                break;                                                                             \
            if (__lx_timeout_us && ktime_compare(ktime_get(), __lx_timeout) > 0) {                 \
                (val) = op(args);                                                                  \
                break;                                                                             \
            }                                                                                      \
            if (__lx_delay_us)                                                                     \
                udelay(__lx_delay_us);                                                             \
            else                                                                                   \
                lx_emul_poll_relax();                                                              \
        }                                                                                          \
        (cond) ? 0 : -ETIMEDOUT;                                                                   \
    })

/* A busy poll without delay still costs CPU time: charge one nanosecond per iteration so that
 * simulated time progresses and the loop cannot spin at one instant. */
void lx_emul_poll_relax(void);

#define readx_poll_timeout(op, addr, val, cond, sleep_us, timeout_us)                              \
    read_poll_timeout(op, val, cond, sleep_us, timeout_us, false, addr)
#define readx_poll_timeout_atomic(op, addr, val, cond, delay_us, timeout_us)                       \
    read_poll_timeout_atomic(op, val, cond, delay_us, timeout_us, false, addr)
#define readb_poll_timeout(addr, val, cond, delay_us, timeout_us)                                  \
    readx_poll_timeout(readb, addr, val, cond, delay_us, timeout_us)
#define readw_poll_timeout(addr, val, cond, delay_us, timeout_us)                                  \
    readx_poll_timeout(readw, addr, val, cond, delay_us, timeout_us)
#define readl_poll_timeout(addr, val, cond, delay_us, timeout_us)                                  \
    readx_poll_timeout(readl, addr, val, cond, delay_us, timeout_us)
#define readl_poll_timeout_atomic(addr, val, cond, delay_us, timeout_us)                           \
    readx_poll_timeout_atomic(readl, addr, val, cond, delay_us, timeout_us)

#endif /* LX_EMUL_IOPOLL_H */
