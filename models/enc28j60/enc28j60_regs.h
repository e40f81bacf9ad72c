// SPDX-License-Identifier: MIT
// ENC28J60 register addresses and bits (datasheet DS39662, register map and register
// descriptions; docs/sources.md). Control registers are 8 bits, addressed by a 5-bit address
// inside the bank ECON1.BSEL selects; 0x1B..0x1F are the same registers in every bank. PHY
// registers are 16 bits, reached through the MII management registers. Names follow the
// datasheet (MAADR1 = first byte of the station address).
#pragma once

#include <cstdint>

namespace nicsim::enc {

struct reg_addr {
    unsigned bank; // 0..3, or common for 0x1B..0x1F
    uint8_t off;   // 0x00..0x1F
};

inline constexpr unsigned common_bank = ~0u;
inline constexpr uint8_t first_common = 0x1B;

namespace reg {
// common
inline constexpr reg_addr EIE{common_bank, 0x1B}, EIR{common_bank, 0x1C}, ESTAT{common_bank, 0x1D},
    ECON2{common_bank, 0x1E}, ECON1{common_bank, 0x1F};
// bank 0
inline constexpr reg_addr ERDPTL{0, 0x00}, ERDPTH{0, 0x01}, EWRPTL{0, 0x02}, EWRPTH{0, 0x03},
    ETXSTL{0, 0x04}, ETXSTH{0, 0x05}, ETXNDL{0, 0x06}, ETXNDH{0, 0x07}, ERXSTL{0, 0x08},
    ERXSTH{0, 0x09}, ERXNDL{0, 0x0A}, ERXNDH{0, 0x0B}, ERXRDPTL{0, 0x0C}, ERXRDPTH{0, 0x0D},
    ERXWRPTL{0, 0x0E}, ERXWRPTH{0, 0x0F}, EDMASTL{0, 0x10}, EDMASTH{0, 0x11}, EDMANDL{0, 0x12},
    EDMANDH{0, 0x13}, EDMADSTL{0, 0x14}, EDMADSTH{0, 0x15}, EDMACSL{0, 0x16}, EDMACSH{0, 0x17};
// bank 1
inline constexpr reg_addr EHT0{1, 0x00}, EPMM0{1, 0x08}, EPMCSL{1, 0x10}, EPMCSH{1, 0x11},
    EPMOL{1, 0x14}, EPMOH{1, 0x15}, ERXFCON{1, 0x18}, EPKTCNT{1, 0x19};
// bank 2 (all MAC/MII)
inline constexpr reg_addr MACON1{2, 0x00}, MACON3{2, 0x02}, MACON4{2, 0x03}, MABBIPG{2, 0x04},
    MAIPGL{2, 0x06}, MAIPGH{2, 0x07}, MACLCON1{2, 0x08}, MACLCON2{2, 0x09}, MAMXFLL{2, 0x0A},
    MAMXFLH{2, 0x0B}, MICMD{2, 0x12}, MIREGADR{2, 0x14}, MIWRL{2, 0x16}, MIWRH{2, 0x17},
    MIRDL{2, 0x18}, MIRDH{2, 0x19};
// bank 3
inline constexpr reg_addr MAADR5{3, 0x00}, MAADR6{3, 0x01}, MAADR3{3, 0x02}, MAADR4{3, 0x03},
    MAADR1{3, 0x04}, MAADR2{3, 0x05}, EBSTSD{3, 0x06}, EBSTCON{3, 0x07}, EBSTCSL{3, 0x08},
    EBSTCSH{3, 0x09}, MISTAT{3, 0x0A}, EREVID{3, 0x12}, ECOCON{3, 0x15}, EFLOCON{3, 0x17},
    EPAUSL{3, 0x18}, EPAUSH{3, 0x19};
} // namespace reg

// reg_def tag: MAC/MII register (an RCR shifts out a dummy byte first; BFS/BFC not allowed).
inline constexpr uint32_t tag_mac_mii = 1;

// EIE / EIR (same bit positions)
inline constexpr uint8_t EIE_INTIE = 0x80, INT_PKT = 0x40, INT_DMA = 0x20, INT_LINK = 0x10,
                         INT_TX = 0x08, INT_TXER = 0x02, INT_RXER = 0x01;
// ESTAT
inline constexpr uint8_t ESTAT_INT = 0x80, ESTAT_BUFER = 0x40, ESTAT_LATECOL = 0x10,
                         ESTAT_RXBUSY = 0x04, ESTAT_TXABRT = 0x02, ESTAT_CLKRDY = 0x01;
// ECON2
inline constexpr uint8_t ECON2_AUTOINC = 0x80, ECON2_PKTDEC = 0x40, ECON2_PWRSV = 0x20,
                         ECON2_VRPS = 0x08;
// ECON1
inline constexpr uint8_t ECON1_TXRST = 0x80, ECON1_RXRST = 0x40, ECON1_DMAST = 0x20,
                         ECON1_CSUMEN = 0x10, ECON1_TXRTS = 0x08, ECON1_RXEN = 0x04,
                         ECON1_BSEL = 0x03;
// ERXFCON
inline constexpr uint8_t ERXFCON_UCEN = 0x80, ERXFCON_ANDOR = 0x40, ERXFCON_CRCEN = 0x20,
                         ERXFCON_PMEN = 0x10, ERXFCON_MPEN = 0x08, ERXFCON_HTEN = 0x04,
                         ERXFCON_MCEN = 0x02, ERXFCON_BCEN = 0x01;
// MACON1 / MACON3 / MACON4
inline constexpr uint8_t MACON1_TXPAUS = 0x08, MACON1_RXPAUS = 0x04, MACON1_PASSALL = 0x02,
                         MACON1_MARXEN = 0x01;
inline constexpr uint8_t MACON3_PADCFG = 0xE0, MACON3_TXCRCEN = 0x10, MACON3_PHDREN = 0x08,
                         MACON3_HFRMEN = 0x04, MACON3_FRMLNEN = 0x02, MACON3_FULDPX = 0x01;
// MICMD / MISTAT
inline constexpr uint8_t MICMD_MIISCAN = 0x02, MICMD_MIIRD = 0x01;
inline constexpr uint8_t MISTAT_NVALID = 0x04, MISTAT_SCAN = 0x02, MISTAT_BUSY = 0x01;

// Per-packet control byte (first byte of a TX packet in the buffer)
inline constexpr uint8_t PCTRL_PHUGEEN = 0x08, PCTRL_PPADEN = 0x04, PCTRL_PCRCEN = 0x02,
                         PCTRL_POVERRIDE = 0x01;

// PHY registers (MIREGADR values) and bits
namespace phy_reg {
inline constexpr uint8_t PHCON1 = 0x00, PHSTAT1 = 0x01, PHID1 = 0x02, PHID2 = 0x03, PHCON2 = 0x10,
                         PHSTAT2 = 0x11, PHIE = 0x12, PHIR = 0x13, PHLCON = 0x14;
}
inline constexpr uint16_t PHCON1_PRST = 0x8000, PHCON1_PLOOPBK = 0x4000, PHCON1_PPWRSV = 0x0800,
                          PHCON1_PDPXMD = 0x0100;
inline constexpr uint16_t PHSTAT1_PFDPX = 0x1000, PHSTAT1_PHDPX = 0x0800, PHSTAT1_LLSTAT = 0x0004,
                          PHSTAT1_JBSTAT = 0x0002;
inline constexpr uint16_t PHSTAT2_TXSTAT = 0x2000, PHSTAT2_RXSTAT = 0x1000,
                          PHSTAT2_COLSTAT = 0x0800, PHSTAT2_LSTAT = 0x0400,
                          PHSTAT2_DPXSTAT = 0x0200, PHSTAT2_PLRITY = 0x0020;
inline constexpr uint16_t PHCON2_FRCLINK = 0x4000, PHCON2_TXDIS = 0x2000, PHCON2_JABBER = 0x0400,
                          PHCON2_HDLDIS = 0x0100;
inline constexpr uint16_t PHIE_PLNKIE = 0x0010, PHIE_PGEIE = 0x0002;
inline constexpr uint16_t PHIR_PLNKIF = 0x0010, PHIR_PGIF = 0x0004;

// Receive status vector (bits 16..31 of the RSV = the status word after the byte count)
inline constexpr uint16_t RSV_LONG_DROP = 1u << 0, RSV_CARRIER = 1u << 2, RSV_CRC_ERR = 1u << 4,
                          RSV_LEN_CHK_ERR = 1u << 5, RSV_LEN_RANGE = 1u << 6, RSV_RX_OK = 1u << 7,
                          RSV_MULTICAST = 1u << 8, RSV_BROADCAST = 1u << 9, RSV_CONTROL = 1u << 11,
                          RSV_VLAN = 1u << 14;

// Buffer memory
inline constexpr uint16_t buffer_bytes = 0x2000; // 8 KiB
inline constexpr uint16_t ptr_mask = 0x1FFF;

// SPI opcodes (the top 3 bits of the first byte; the low 5 bits are the argument)
enum class opcode : uint8_t {
    rcr = 0,
    rbm = 1,
    wcr = 2,
    wbm = 3,
    bfs = 4,
    bfc = 5,
    bad = 6,
    src = 7
};
inline constexpr uint8_t buffer_arg = 0x1A; // RBM = 0x3A, WBM = 0x7A
inline constexpr uint8_t src_arg = 0x1F;    // SRC = 0xFF

} // namespace nicsim::enc
