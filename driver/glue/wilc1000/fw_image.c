// SPDX-License-Identifier: MIT
/* A small, deterministic, well-formed WILC1000 firmware image for request_firmware(). The
 * driver only streams it to the chip (wilc_wlan_firmware_download: records of
 * {le32 addr; le32 size; u8 data[size]}, written in <= 4 KiB chunks, never read back), so the
 * content is a pattern, not firmware. Record layout is the driver's; the addresses and sizes
 * are an assumption chosen to exercise a multi-chunk record (5000 B > 4096 B) and a short one. */
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/firmware.h>

#include "netdev.h"

/* Same name netdev.c requests: WILC1000_FW(WILC1000_API_VER). */
#define GLUE_FW_NAME "atmel/wilc1000_wifi_firmware-1.bin"

#define REC0_ADDR 0x00000000u
#define REC0_SIZE 5000u
#define REC1_ADDR 0x00080000u
#define REC1_SIZE 64u
#define IMAGE_SIZE (8u + REC0_SIZE + 8u + REC1_SIZE)

static u8 image[IMAGE_SIZE];
static bool built;

static void put_le32(u8* p, u32 v)
{
    p[0] = v & 0xff;
    p[1] = (v >> 8) & 0xff;
    p[2] = (v >> 16) & 0xff;
    p[3] = (v >> 24) & 0xff;
}

static u8* put_record(u8* p, u32 addr, u32 size, u8 seed)
{
    put_le32(p, addr);
    put_le32(p + 4, size);
    for (u32 i = 0; i < size; i++)
        p[8 + i] = (u8)(seed + i * 7u);
    return p + 8 + size;
}

void wilc_glue_register_firmware(void)
{
    if (!built) {
        u8* p = put_record(image, REC0_ADDR, REC0_SIZE, 0x11);
        put_record(p, REC1_ADDR, REC1_SIZE, 0x5a);
        built = true;
    }
    lx_emul_firmware_register(GLUE_FW_NAME, image, sizeof(image));
}
