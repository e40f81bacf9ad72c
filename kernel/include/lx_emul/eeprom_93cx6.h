/* SPDX-License-Identifier: MIT */
/* linux/eeprom_93cx6.h: the bit-banged EEPROM descriptor. ks8851 only touches the EEPROM
 * through ethtool get/set_eeprom, gated by CCR.EEPROM, which no nicsim path calls: the
 * functions are benign (read returns 0xffff like a blank 93C46, write does nothing). */
#ifndef LX_EMUL_EEPROM_93CX6_H
#define LX_EMUL_EEPROM_93CX6_H

#include <linux/types.h>

#define PCI_EEPROM_WIDTH_93C46 6
#define PCI_EEPROM_WIDTH_93C56 8
#define PCI_EEPROM_WIDTH_93C66 8

struct eeprom_93cx6 {
    void* data;
    void (*register_read)(struct eeprom_93cx6* eeprom);
    void (*register_write)(struct eeprom_93cx6* eeprom);
    int width;
    char drive_data;
    char reg_data_in;
    char reg_data_out;
    char reg_data_clock;
    char reg_chip_select;
};

void eeprom_93cx6_read(struct eeprom_93cx6* eeprom, const u8 word, u16* data);
void eeprom_93cx6_multiread(struct eeprom_93cx6* eeprom, const u8 word, __le16* data,
                            const u16 words);
void eeprom_93cx6_wren(struct eeprom_93cx6* eeprom, bool enable);
void eeprom_93cx6_write(struct eeprom_93cx6* eeprom, u8 addr, u16 data);

#endif
