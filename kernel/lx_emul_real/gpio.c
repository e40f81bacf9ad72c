// SPDX-License-Identifier: MIT
/* lx_emul_real: GPIO consumers on a board that describes no GPIO for the device (no reset or
 * enable line in its device-tree node): the optional lookups find none, and naming "no GPIO" (a
 * NULL descriptor) succeeds, as in the kernel's gpiolib. Drivers set a GPIO's value only when
 * they got one (the generated dummies stand for gpiod_set_value*). */
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
