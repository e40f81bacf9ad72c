/* SPDX-License-Identifier: MIT */
/* linux/regulator/consumer.h subset: ks8851's "vdd-io"/"vdd" supplies. The kernel hands out a
 * dummy regulator when the device tree names none; nicsim does the same: a static dummy whose
 * enable count is tracked (so a test can check enable/disable pairing). */
#ifndef LX_EMUL_REGULATOR_H
#define LX_EMUL_REGULATOR_H

#include <linux/device.h>

struct regulator;

struct regulator* devm_regulator_get(struct device* dev, const char* id);
int regulator_enable(struct regulator* regulator);
int regulator_disable(struct regulator* regulator);

#endif
