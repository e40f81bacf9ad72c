/* SPDX-License-Identifier: MIT */
/* lx_emul: BUG/WARN and compile-time assertions (linux/bug.h, linux/build_bug.h).
 * BUG() stops the run; WARN() logs a warning naming file:line and continues (counted as a
 * KERN_WARNING line, so a report can tell that the driver warned). */
#ifndef LX_EMUL_BUG_H
#define LX_EMUL_BUG_H

#include <lx_emul/compiler.h>

void lx_emul_bug(const char* file, int line, const char* func) __noreturn;
void lx_emul_warn(const char* file, int line, const char* func, const char* fmt, ...)
    __printf(4, 5);

#define BUG() lx_emul_bug(__FILE__, __LINE__, __func__)
#define BUG_ON(cond)                                                                               \
    do {                                                                                           \
        if (unlikely(cond))                                                                        \
            BUG();                                                                                 \
    } while (0)

#define WARN(cond, fmt...)                                                                         \
    ({                                                                                             \
        int __lx_ret_warn = !!(cond);                                                              \
        if (unlikely(__lx_ret_warn))                                                               \
            lx_emul_warn(__FILE__, __LINE__, __func__, fmt);                                       \
        unlikely(__lx_ret_warn);                                                                   \
    })
#define WARN_ON(cond)                                                                              \
    ({                                                                                             \
        int __lx_ret_warn = !!(cond);                                                              \
        if (unlikely(__lx_ret_warn))                                                               \
            lx_emul_warn(__FILE__, __LINE__, __func__, "WARN_ON(%s)", #cond);                      \
        unlikely(__lx_ret_warn);                                                                   \
    })
#define WARN_ONCE(cond, fmt...)                                                                    \
    ({                                                                                             \
        static bool __lx_warned;                                                                   \
        int __lx_ret_warn = !!(cond);                                                              \
        if (unlikely(__lx_ret_warn) && !__lx_warned) {                                             \
            __lx_warned = true;                                                                    \
            lx_emul_warn(__FILE__, __LINE__, __func__, fmt);                                       \
        }                                                                                          \
        unlikely(__lx_ret_warn);                                                                   \
    })
#define WARN_ON_ONCE(cond)                                                                         \
    ({                                                                                             \
        static bool __lx_warned;                                                                   \
        int __lx_ret_warn = !!(cond);                                                              \
        if (unlikely(__lx_ret_warn) && !__lx_warned) {                                             \
            __lx_warned = true;                                                                    \
            lx_emul_warn(__FILE__, __LINE__, __func__, "WARN_ON_ONCE(%s)", #cond);                 \
        }                                                                                          \
        unlikely(__lx_ret_warn);                                                                   \
    })

#define BUILD_BUG_ON(cond) _Static_assert(!(cond), "BUILD_BUG_ON failed: " #cond)
#define BUILD_BUG_ON_MSG(cond, msg) _Static_assert(!(cond), msg)
#define BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int : (-!!(e)); })))
#define BUILD_BUG_ON_NOT_POWER_OF_2(n) BUILD_BUG_ON((n) == 0 || (((n) & ((n)-1)) != 0))
#define BUILD_BUG() _Static_assert(0, "BUILD_BUG")
#ifndef static_assert
#define static_assert(expr, ...) _Static_assert(expr, #expr)
#endif

#endif /* LX_EMUL_BUG_H */
