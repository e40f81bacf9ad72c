// SPDX-License-Identifier: MIT
/* lx_emul_real: GPIO consumers on a board that describes no GPIO for the device (no reset or
 * enable line in its device-tree node): the optional lookups find none, and naming "no GPIO" (a
 * NULL descriptor) succeeds, as does setting its value: gpiolib ignores a NULL descriptor, the
 * optional GPIO that is not there. No descriptor is ever handed out, so any other is a bug. */
#include <linux/gpio/consumer.h>

#include "internal.h"

struct gpio_desc *devm_gpiod_get_optional(struct device *dev, const char *con_id,
                                          enum gpiod_flags flags)
{
    (void)dev;
    (void)con_id;
    (void)flags;
    return NULL;
}

int gpiod_set_consumer_name(struct gpio_desc *desc, const char *name)
{
    (void)name;
    if (desc)
        lx_kit_abort("gpiod_set_consumer_name: a GPIO descriptor nicsim never handed out");
    return 0;
}

/* 6.12's returns the error (0 for the NULL descriptor), 6.1's nothing. */
#if LX_REAL_KERNEL_AT_LEAST(6, 12)
int gpiod_set_value_cansleep(struct gpio_desc *desc, int value)
#else
void gpiod_set_value_cansleep(struct gpio_desc *desc, int value)
#endif
{
    (void)value;
    if (desc)
        lx_kit_abort("gpiod_set_value_cansleep: a GPIO descriptor nicsim never handed out");
#if LX_REAL_KERNEL_AT_LEAST(6, 12)
    return 0;
#endif
}
