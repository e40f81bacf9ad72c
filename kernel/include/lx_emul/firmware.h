/* SPDX-License-Identifier: MIT */
/* linux/firmware.h: request_firmware() looks the name up in a table the glue or testbench
 * fills (lx_emul_firmware_register); unknown names fail with -ENOENT as in the kernel. */
#ifndef LX_EMUL_FIRMWARE_H
#define LX_EMUL_FIRMWARE_H

#include <linux/types.h>
#include <linux/device.h>

struct firmware {
    size_t size;
    const u8* data;
    void* priv;
};

int request_firmware(const struct firmware** fw, const char* name, struct device* device);
void release_firmware(const struct firmware* fw);

/* Register an image under `name`; the memory must outlive every request (not copied). */
void lx_emul_firmware_register(const char* name, const u8* data, size_t size);

#endif
