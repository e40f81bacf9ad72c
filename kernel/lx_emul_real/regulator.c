// SPDX-License-Identifier: MIT
/* lx_emul_real: the regulators a driver asks for by name are the kernel's dummy regulator
 * (a board without the supply in its device tree gets it from regulator_get): always there,
 * switched by an enable count; devm_regulator_get's is the device's devres, gone at unbind.
 * An unbalanced disable stops the run, where the kernel warns. */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/regulator/consumer.h>

#include <lx_emul/shared.h>

#include "internal.h"

struct regulator {
    int enable_count;
};

struct regulator *devm_regulator_get(struct device *dev, const char *id)
{
    (void)id;
    struct regulator *r = lx_emul_devm_alloc(dev, sizeof(*r), 1, "devm_regulator_get",
                                             "lx_emul_real");
    return r ? r : ERR_PTR(-ENOMEM);
}

int regulator_enable(struct regulator *r)
{
    r->enable_count++;
    return 0;
}

int regulator_disable(struct regulator *r)
{
    if (r->enable_count <= 0)
        lx_kit_abort("regulator_disable: unbalanced disable");
    r->enable_count--;
    return 0;
}
