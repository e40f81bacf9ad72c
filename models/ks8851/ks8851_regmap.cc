// SPDX-License-Identifier: MIT
#include "models/ks8851/ks8851_regmap.h"

#include <array>

#include "models/ks8851/ks8851_regs.h"

namespace nicsim::ks {

namespace {

using K = reg_kind;

// Offsets and names: KSZ8851SNL / KSZ8851-16MLL register maps (as used by the Linux driver's
// ks8851.h). Reset values: datasheet where known; [assumption] 0 for storage registers whose
// reset value neither the driver nor the references give.
constexpr reg_desc table[] = {
    {reg::CCR, "CCR", 0, 0x0000, K::computed}, // variant dependent (core)
    {reg::MARL, "MARL", 0, 0xFFFF, K::storage},
    {reg::MARM, "MARM", 0, 0xFFFF, K::storage},
    {reg::MARH, "MARH", 0, 0xFFFF, K::storage},
    {reg::OBCR, "OBCR", 0, 0x0047, K::storage},
    {reg::EEPCR, "EEPCR", 0, 0x003B, K::storage}, // EEDO (bit 2) is an input
    {reg::MBIR, "MBIR", 0, 0x0000, K::computed},
    {reg::GRR, "GRR", 0, 0x0003, K::control},
    {reg::WFCR, "WFCR", 0, 0x008F, K::storage},
    {0x30, "WF0CRC0", 0, 0xFFFF, K::storage},
    {0x32, "WF0CRC1", 0, 0xFFFF, K::storage},
    {0x34, "WF0BM0", 0, 0xFFFF, K::storage},
    {0x36, "WF0BM1", 0, 0xFFFF, K::storage},
    {0x38, "WF0BM2", 0, 0xFFFF, K::storage},
    {0x3A, "WF0BM3", 0, 0xFFFF, K::storage},
    {0x40, "WF1CRC0", 0, 0xFFFF, K::storage},
    {0x42, "WF1CRC1", 0, 0xFFFF, K::storage},
    {0x44, "WF1BM0", 0, 0xFFFF, K::storage},
    {0x46, "WF1BM1", 0, 0xFFFF, K::storage},
    {0x48, "WF1BM2", 0, 0xFFFF, K::storage},
    {0x4A, "WF1BM3", 0, 0xFFFF, K::storage},
    {0x50, "WF2CRC0", 0, 0xFFFF, K::storage},
    {0x52, "WF2CRC1", 0, 0xFFFF, K::storage},
    {0x54, "WF2BM0", 0, 0xFFFF, K::storage},
    {0x56, "WF2BM1", 0, 0xFFFF, K::storage},
    {0x58, "WF2BM2", 0, 0xFFFF, K::storage},
    {0x5A, "WF2BM3", 0, 0xFFFF, K::storage},
    {0x60, "WF3CRC0", 0, 0xFFFF, K::storage},
    {0x62, "WF3CRC1", 0, 0xFFFF, K::storage},
    {0x64, "WF3BM0", 0, 0xFFFF, K::storage},
    {0x66, "WF3BM1", 0, 0xFFFF, K::storage},
    {0x68, "WF3BM2", 0, 0xFFFF, K::storage},
    {0x6A, "WF3BM3", 0, 0xFFFF, K::storage},
    {reg::TXCR, "TXCR", 0, 0x01FF, K::control},
    {reg::TXSR, "TXSR", 0, 0x0000, K::computed},
    {reg::RXCR1, "RXCR1", 0, 0xFFF3, K::control},
    {reg::RXCR2, "RXCR2", 0x0004, 0x00FF, K::storage}, // [assumption] UDPLFE set at reset
    {reg::TXMIR, "TXMIR", 0, 0x0000, K::computed},
    {reg::RXFHSR, "RXFHSR", 0, 0x0000, K::computed},
    {reg::RXFHBCR, "RXFHBCR", 0, 0x0000, K::computed},
    {reg::TXQCR, "TXQCR", 0, 0x0007, K::control},
    {reg::RXQCR, "RXQCR", 0, 0x02F9, K::control}, // bits 12:10 are status (computed)
    {reg::TXFDPR, "TXFDPR", 0, 0x47FF, K::storage},
    {reg::RXFDPR, "RXFDPR", 0, 0x5FFF, K::control},
    {reg::RXDTTR, "RXDTTR", 0, 0xFFFF, K::storage},
    {reg::RXDBCTR, "RXDBCTR", 0, 0xFFFF, K::storage},
    {reg::IER, "IER", 0, 0xEB7F, K::control},
    {reg::ISR, "ISR", 0, 0xEB7F, K::w1c},
    {reg::RXFCTR, "RXFCTR", 0, 0x00FF, K::computed}, // 15:8 frame count (computed)
    {reg::TXNTFSR, "TXNTFSR", 0, 0xFFFF, K::storage},
    {reg::MAHTR0, "MAHTR0", 0, 0xFFFF, K::storage},
    {reg::MAHTR1, "MAHTR1", 0, 0xFFFF, K::storage},
    {reg::MAHTR2, "MAHTR2", 0, 0xFFFF, K::storage},
    {reg::MAHTR3, "MAHTR3", 0, 0xFFFF, K::storage},
    {reg::FCLWR, "FCLWR", 0x0500, 0x0FFF, K::storage}, // [assumption] watermark resets
    {reg::FCHWR, "FCHWR", 0x0300, 0x0FFF, K::storage},
    {reg::FCOWR, "FCOWR", 0x0040, 0x0FFF, K::storage},
    {reg::CIDER, "CIDER", 0, 0x0000, K::computed},
    {reg::CGCR, "CGCR", 0, 0xFFFF, K::storage},
    {reg::IACR, "IACR", 0, 0x1C1F, K::storage},
    {reg::IADLR, "IADLR", 0, 0x0000, K::constant}, // MIB counters not modelled: read 0
    {reg::IADHR, "IADHR", 0, 0x0000, K::constant},
    {reg::PMECR, "PMECR", 0, 0x5FFF, K::storage},
    {reg::GSWUTR, "GSWUTR", 0x080C, 0xFF0F, K::storage},
    {reg::PHYRR, "PHYRR", 0, 0x0001, K::control},
    {reg::P1MBCR, "P1MBCR", 0x3100, 0xFFFF, K::control}, // 100M, AN enable, full duplex
    {reg::P1MBSR, "P1MBSR", 0, 0x0000, K::computed},
    {reg::PHY1ILR, "PHY1ILR", 0, 0x0000, K::computed},
    {reg::PHY1IHR, "PHY1IHR", 0, 0x0000, K::computed},
    {reg::P1ANAR, "P1ANAR", 0x05E1, 0x05EF, K::storage}, // 10/100 HD/FD + pause, 802.3
    {reg::P1ANLPR, "P1ANLPR", 0, 0x0000, K::computed},
    {reg::P1SCLMD, "P1SCLMD", 0, 0x0800, K::storage},
    {reg::P1CR, "P1CR", 0x00FF, 0xFFFF, K::storage},
    {reg::P1SR, "P1SR", 0, 0x0000, K::computed},
};

constexpr unsigned table_size = sizeof(table) / sizeof(table[0]);

// Offset -> table index (+1; 0 = no register), built once.
const std::array<uint8_t, 256>& index() {
    static const std::array<uint8_t, 256> idx = [] {
        std::array<uint8_t, 256> a{};
        for (unsigned i = 0; i < table_size; ++i)
            a[table[i].off] = static_cast<uint8_t>(i + 1);
        return a;
    }();
    return idx;
}

} // namespace

const reg_desc* find_reg(uint8_t off) {
    const uint8_t i = index()[off];
    return i ? &table[i - 1] : nullptr;
}

const reg_desc* reg_table(unsigned& count) {
    count = table_size;
    return table;
}

} // namespace nicsim::ks
