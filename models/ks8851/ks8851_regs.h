// SPDX-License-Identifier: MIT
// KS8851 (KSZ8851SNL / KSZ8851-16MLL) register offsets and the bits the model implements.
// Names follow the Micrel datasheets (the same names the Linux driver uses). Offsets are byte
// addresses of 16-bit registers; a 32-bit SPI access covers the dword (offset & ~3).
#pragma once

#include <cstdint>

namespace nicsim::ks {

namespace reg {
inline constexpr uint8_t CCR = 0x08;
inline constexpr uint8_t MARL = 0x10;
inline constexpr uint8_t MARM = 0x12;
inline constexpr uint8_t MARH = 0x14;
inline constexpr uint8_t OBCR = 0x20;
inline constexpr uint8_t EEPCR = 0x22;
inline constexpr uint8_t MBIR = 0x24;
inline constexpr uint8_t GRR = 0x26;
inline constexpr uint8_t WFCR = 0x2A;
inline constexpr uint8_t TXCR = 0x70;
inline constexpr uint8_t TXSR = 0x72;
inline constexpr uint8_t RXCR1 = 0x74;
inline constexpr uint8_t RXCR2 = 0x76;
inline constexpr uint8_t TXMIR = 0x78;
inline constexpr uint8_t RXFHSR = 0x7C;
inline constexpr uint8_t RXFHBCR = 0x7E;
inline constexpr uint8_t TXQCR = 0x80;
inline constexpr uint8_t RXQCR = 0x82;
inline constexpr uint8_t TXFDPR = 0x84;
inline constexpr uint8_t RXFDPR = 0x86;
inline constexpr uint8_t RXDTTR = 0x8C;
inline constexpr uint8_t RXDBCTR = 0x8E;
inline constexpr uint8_t IER = 0x90;
inline constexpr uint8_t ISR = 0x92;
inline constexpr uint8_t RXFCTR = 0x9C;
inline constexpr uint8_t TXNTFSR = 0x9E;
inline constexpr uint8_t MAHTR0 = 0xA0;
inline constexpr uint8_t MAHTR1 = 0xA2;
inline constexpr uint8_t MAHTR2 = 0xA4;
inline constexpr uint8_t MAHTR3 = 0xA6;
inline constexpr uint8_t FCLWR = 0xB0;
inline constexpr uint8_t FCHWR = 0xB2;
inline constexpr uint8_t FCOWR = 0xB4;
inline constexpr uint8_t CIDER = 0xC0;
inline constexpr uint8_t CGCR = 0xC6;
inline constexpr uint8_t IACR = 0xC8;
inline constexpr uint8_t IADLR = 0xD0;
inline constexpr uint8_t IADHR = 0xD2;
inline constexpr uint8_t PMECR = 0xD4;
inline constexpr uint8_t GSWUTR = 0xD6;
inline constexpr uint8_t PHYRR = 0xD8;
inline constexpr uint8_t P1MBCR = 0xE4;
inline constexpr uint8_t P1MBSR = 0xE6;
inline constexpr uint8_t PHY1ILR = 0xE8;
inline constexpr uint8_t PHY1IHR = 0xEA;
inline constexpr uint8_t P1ANAR = 0xEC;
inline constexpr uint8_t P1ANLPR = 0xEE;
inline constexpr uint8_t P1SCLMD = 0xF4;
inline constexpr uint8_t P1CR = 0xF6;
inline constexpr uint8_t P1SR = 0xF8;
} // namespace reg

// CCR
inline constexpr uint16_t CCR_LE = 1u << 10, CCR_EEPROM = 1u << 9, CCR_SPI = 1u << 8,
                          CCR_16BIT = 1u << 6, CCR_48PIN = 1u << 1, CCR_32PIN = 1u << 0;
// PMECR power-management mode, bits 1:0 (kernel ks8851.h PMECR_PM_*): 0 normal,
// 1 energy-detect, 2 soft power-down, 3 power-saving.
inline constexpr uint16_t PMECR_PM_MASK = 0x3;
// GRR
inline constexpr uint16_t GRR_QMU = 1u << 1, GRR_GSR = 1u << 0;
// TXCR
inline constexpr uint16_t TXCR_TXFCE = 1u << 3, TXCR_TXPE = 1u << 2, TXCR_TXCRC = 1u << 1,
                          TXCR_TXE = 1u << 0;
// RXCR1
inline constexpr uint16_t RXCR1_RXPAFMA = 1u << 11, RXCR1_RXFCE = 1u << 10, RXCR1_RXMAFMA = 1u << 8,
                          RXCR1_RXBE = 1u << 7, RXCR1_RXME = 1u << 6, RXCR1_RXUE = 1u << 5,
                          RXCR1_RXAE = 1u << 4, RXCR1_RXINVF = 1u << 1, RXCR1_RXE = 1u << 0;
// RXFHSR (frame status)
inline constexpr uint16_t RXFSHR_RXFV = 1u << 15, RXFSHR_RXBF = 1u << 7, RXFSHR_RXMF = 1u << 6,
                          RXFSHR_RXUF = 1u << 5, RXFSHR_RXFT = 1u << 3, RXFSHR_RXFTL = 1u << 2;
// TXQCR
inline constexpr uint16_t TXQCR_AETFE = 1u << 2, TXQCR_METFE = 1u << 0;
// RXQCR
inline constexpr uint16_t RXQCR_RXDTTS = 1u << 12, RXQCR_RXDBCTS = 1u << 11,
                          RXQCR_RXFCTS = 1u << 10, RXQCR_RXDTTE = 1u << 7, RXQCR_RXDBCTE = 1u << 6,
                          RXQCR_RXFCTE = 1u << 5, RXQCR_SDA = 1u << 3, RXQCR_RRXEF = 1u << 0;
// ISR / IER
inline constexpr uint16_t IRQ_LCI = 1u << 15, IRQ_TXI = 1u << 14, IRQ_RXI = 1u << 13,
                          IRQ_RXOI = 1u << 11, IRQ_TXPSI = 1u << 9, IRQ_RXPSI = 1u << 8,
                          IRQ_LDI = 1u << 3, IRQ_SPIBEI = 1u << 1;
// TX frame control word
inline constexpr uint16_t TXFR_TXIC = 1u << 15, TXFR_TXFID_MASK = 0x3F;
// P1MBCR (MII BMCR)
inline constexpr uint16_t BMCR_RESET = 1u << 15, BMCR_SPEED100 = 1u << 13, BMCR_ANENABLE = 1u << 12,
                          BMCR_ANRESTART = 1u << 9, BMCR_FULLDPLX = 1u << 8;
// P1MBSR (MII BMSR)
inline constexpr uint16_t BMSR_LSTATUS = 1u << 2, BMSR_ANEGCOMPLETE = 1u << 5;

} // namespace nicsim::ks
