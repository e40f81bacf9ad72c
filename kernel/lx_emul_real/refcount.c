// SPDX-License-Identifier: MIT
/* lx_emul_real: what the headers' refcount_t operations call when a count overflows or is used
 * after it reached zero. The kernel warns and saturates the count, leaking the object; in a
 * simulation that is a driver bug to stop at, named by the operation. */
#include <linux/kernel.h>
#include <linux/refcount.h>

#include "internal.h"

void refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t)
{
    static const char *const what[] = {
        [REFCOUNT_ADD_NOT_ZERO_OVF] = "saturated by an increment",
        [REFCOUNT_ADD_OVF] = "saturated by an addition",
        [REFCOUNT_ADD_UAF] = "addition on 0 (use after free)",
        [REFCOUNT_SUB_UAF] = "underflow (use after free)",
        [REFCOUNT_DEC_LEAK] = "decrement hit 0 (leak)",
    };
    (void)r;
    lx_kit_abort("refcount_t: %s",
                 (unsigned int)t < ARRAY_SIZE(what) ? what[t] : "unknown saturation");
}
