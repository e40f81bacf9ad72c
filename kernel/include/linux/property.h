/* SPDX-License-Identifier: MIT */
/* linux/property.h: unified device properties. The drivers reach the device-tree node's
 * properties through the helpers declared where the kernel declares them (the MAC address:
 * device_get_mac_address/device_get_ethdev_address in linux/etherdevice.h); this header only
 * has to exist. */
#ifndef LX_EMUL_PROPERTY_H
#define LX_EMUL_PROPERTY_H
#include <linux/device.h>
#endif
