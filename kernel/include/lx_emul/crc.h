/* SPDX-License-Identifier: MIT */
/* linux/crc7.h and linux/crc-itu-t.h: the kernel's own lib/crc7.c and lib/crc-itu-t.c are
 * compiled unmodified from the extracted tree (nicsim_klib); these are their interfaces. The
 * inline byte steps follow the kernel's table-driven definitions. */
#ifndef LX_EMUL_CRC_H
#define LX_EMUL_CRC_H

#include <linux/types.h>

extern const u8 crc7_be_syndrome_table[256];
static inline u8 crc7_be_byte(u8 crc, u8 data) { return crc7_be_syndrome_table[crc ^ data]; }
u8 crc7_be(u8 crc, const u8* buffer, size_t len);

extern const u16 crc_itu_t_table[256];
static inline u16 crc_itu_t_byte(u16 crc, const u8 data)
{
    return (crc << 8) ^ crc_itu_t_table[((crc >> 8) ^ data) & 0xff];
}
u16 crc_itu_t(u16 crc, const u8* buffer, size_t len);

#endif
