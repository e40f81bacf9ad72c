/* SPDX-License-Identifier: MIT */
/* linux/clk.h subset: wilc1000's optional "rtc" clock. No modelled board supplies one, so
 * devm_clk_get_optional() returns NULL (kernel: no clock in the device tree) and the
 * prepare/enable calls accept NULL like the kernel's. */
#ifndef LX_EMUL_CLK_H
#define LX_EMUL_CLK_H

#include <linux/device.h>

struct clk;

static inline struct clk* devm_clk_get_optional(struct device* dev, const char* id)
{
    return NULL;
}
/* 6.12: get and enable in one (devm-managed); no clock in the device tree either. */
static inline struct clk* devm_clk_get_optional_enabled(struct device* dev, const char* id)
{
    return NULL;
}
static inline int clk_prepare_enable(struct clk* clk) { return 0; }
static inline void clk_disable_unprepare(struct clk* clk) {}

#endif
