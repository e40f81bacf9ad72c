/* SPDX-License-Identifier: MIT */
/* linux/gpio/consumer.h subset. The boards nicsim models wire no enable/reset GPIOs to the
 * drivers (wilc1000 "enable"/"reset" and ks8851 "reset" are optional), so the optional getters
 * return NULL like the kernel does when the device tree has no such property, and setting a
 * NULL descriptor is a no-op (kernel semantics). A required GPIO (devm_gpiod_get) is reported
 * missing with -ENOENT, again as the kernel does. */
#ifndef LX_EMUL_GPIO_H
#define LX_EMUL_GPIO_H

#include <linux/types.h>
#include <linux/err.h>
#include <linux/device.h>

struct gpio_desc;

enum gpiod_flags {
    GPIOD_ASIS = 0,
    GPIOD_IN = 1,
    GPIOD_OUT_LOW = 3,
    GPIOD_OUT_HIGH = 7,
    GPIOD_OUT_LOW_OPEN_DRAIN = 11,
    GPIOD_OUT_HIGH_OPEN_DRAIN = 15,
};

static inline struct gpio_desc* devm_gpiod_get_optional(struct device* dev, const char* con_id,
                                                        enum gpiod_flags flags)
{
    return NULL;
}
static inline struct gpio_desc* devm_gpiod_get(struct device* dev, const char* con_id,
                                               enum gpiod_flags flags)
{
    return ERR_PTR(-ENOENT);
}
static inline void gpiod_set_value(struct gpio_desc* desc, int value) {}
static inline void gpiod_set_value_cansleep(struct gpio_desc* desc, int value) {}
static inline int gpiod_get_value(const struct gpio_desc* desc) { return 0; }
static inline int gpiod_set_consumer_name(struct gpio_desc* desc, const char* name) { return 0; }
static inline bool gpio_is_valid(int number) { return false; }

#endif
