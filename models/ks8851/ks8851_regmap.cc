// SPDX-License-Identifier: MIT
#include "models/ks8851/ks8851_regmap.h"

#include "models/ks8851/ks8851_regs.h"

namespace nicsim::ks {

namespace {

using regs::access;

// A storage or control register: the `writable` bits read back what was written; the other
// bits are not implemented (read 0, writes dropped).
reg16& storage(reg_map16& m, const char* n, uint8_t off, uint16_t writable, uint16_t reset = 0) {
    if (writable == 0xFFFF)
        return m.declare({n, off, 0, reset, access::rw});
    return m.declare({n, off, 0, reset, access::none, {{n, writable, access::rw}}});
}

// A register whose value the chip produces (read handler in the core). Host writes that reach
// none of its `writable` bits are read_only_write findings.
reg16& status(reg_map16& m, const char* n, uint8_t off, uint16_t writable = 0) {
    if (writable == 0)
        return m.declare({n, off, 0, 0, access::ro});
    return m.declare({n, off, 0, 0, access::ro, {{n, writable, access::rw}}});
}

} // namespace

// Offsets and names: KSZ8851SNL / KSZ8851-16MLL register maps (as used by the Linux driver's
// ks8851.h). Reset values: datasheet where known; [assumption] 0 for storage registers whose
// reset value neither the driver nor the references give.
void declare_registers(reg_map16& m) {
    status(m, "CCR", reg::CCR); // variant dependent (core)
    storage(m, "MARL", reg::MARL, 0xFFFF);
    storage(m, "MARM", reg::MARM, 0xFFFF);
    storage(m, "MARH", reg::MARH, 0xFFFF);
    storage(m, "OBCR", reg::OBCR, 0x0047);
    storage(m, "EEPCR", reg::EEPCR, 0x003B); // EEDO (bit 2) is an input
    status(m, "MBIR", reg::MBIR);
    storage(m, "GRR", reg::GRR, 0x0003);
    storage(m, "WFCR", reg::WFCR, 0x008F);
    // Wake-up frames 0..3: CRC and byte masks (storage only; wake-on-LAN is not modelled).
    static const char* const wf[4][6] = {
        {"WF0CRC0", "WF0CRC1", "WF0BM0", "WF0BM1", "WF0BM2", "WF0BM3"},
        {"WF1CRC0", "WF1CRC1", "WF1BM0", "WF1BM1", "WF1BM2", "WF1BM3"},
        {"WF2CRC0", "WF2CRC1", "WF2BM0", "WF2BM1", "WF2BM2", "WF2BM3"},
        {"WF3CRC0", "WF3CRC1", "WF3BM0", "WF3BM1", "WF3BM2", "WF3BM3"},
    };
    for (unsigned f = 0; f < 4; ++f)
        for (unsigned i = 0; i < 6; ++i)
            storage(m, wf[f][i], uint8_t(0x30 + 0x10 * f + 2 * i), 0xFFFF);
    storage(m, "TXCR", reg::TXCR, 0x01FF);
    status(m, "TXSR", reg::TXSR);
    storage(m, "RXCR1", reg::RXCR1, 0xFFF3);
    storage(m, "RXCR2", reg::RXCR2, 0x00FF, 0x0004); // [assumption] UDPLFE set at reset
    status(m, "TXMIR", reg::TXMIR);
    status(m, "RXFHSR", reg::RXFHSR);
    status(m, "RXFHBCR", reg::RXFHBCR);
    storage(m, "TXQCR", reg::TXQCR, 0x0007);
    // Bits 12:10 are threshold status the chip sets (cleared with ISR.RXI).
    m.declare({"RXQCR",
               reg::RXQCR,
               0,
               0,
               access::none,
               {{"RXQCR", 0x02F9, access::rw},
                {"RXDTTS", RXQCR_RXDTTS, access::ro},
                {"RXDBCTS", RXQCR_RXDBCTS, access::ro},
                {"RXFCTS", RXQCR_RXFCTS, access::ro}}});
    storage(m, "TXFDPR", reg::TXFDPR, 0x47FF);
    storage(m, "RXFDPR", reg::RXFDPR, 0x5FFF);
    storage(m, "RXDTTR", reg::RXDTTR, 0xFFFF);
    storage(m, "RXDBCTR", reg::RXDBCTR, 0xFFFF);
    storage(m, "IER", reg::IER, 0xEB7F);
    m.declare({"ISR",
               reg::ISR,
               0,
               0,
               access::none,
               {{"LCI", IRQ_LCI, access::w1c},
                {"TXI", IRQ_TXI, access::w1c},
                {"RXI", IRQ_RXI, access::w1c},
                {"RXOI", IRQ_RXOI, access::w1c},
                {"TXPSI", IRQ_TXPSI, access::w1c},
                {"RXPSI", IRQ_RXPSI, access::w1c},
                {"LDI", IRQ_LDI, access::w1c},
                {"SPIBEI", IRQ_SPIBEI, access::w1c},
                {"ISR", 0x0075, access::w1c}}}); // the other status bits (not raised)
    status(m, "RXFCTR", reg::RXFCTR, 0x00FF);    // 15:8 frame count (computed)
    storage(m, "TXNTFSR", reg::TXNTFSR, 0xFFFF);
    storage(m, "MAHTR0", reg::MAHTR0, 0xFFFF);
    storage(m, "MAHTR1", reg::MAHTR1, 0xFFFF);
    storage(m, "MAHTR2", reg::MAHTR2, 0xFFFF);
    storage(m, "MAHTR3", reg::MAHTR3, 0xFFFF);
    storage(m, "FCLWR", reg::FCLWR, 0x0FFF, 0x0500); // [assumption] watermark resets
    storage(m, "FCHWR", reg::FCHWR, 0x0FFF, 0x0300);
    storage(m, "FCOWR", reg::FCOWR, 0x0FFF, 0x0040);
    status(m, "CIDER", reg::CIDER);
    storage(m, "CGCR", reg::CGCR, 0xFFFF);
    storage(m, "IACR", reg::IACR, 0x1C1F);
    status(m, "IADLR", reg::IADLR); // MIB counters not modelled: read 0
    status(m, "IADHR", reg::IADHR);
    storage(m, "PMECR", reg::PMECR, 0x5FFF);
    storage(m, "GSWUTR", reg::GSWUTR, 0xFF0F, 0x080C);
    storage(m, "PHYRR", reg::PHYRR, 0x0001);
    storage(m, "P1MBCR", reg::P1MBCR, 0xFFFF, 0x3100); // 100M, AN enable, full duplex
    status(m, "P1MBSR", reg::P1MBSR);
    status(m, "PHY1ILR", reg::PHY1ILR);
    status(m, "PHY1IHR", reg::PHY1IHR);
    storage(m, "P1ANAR", reg::P1ANAR, 0x05EF, 0x05E1); // 10/100 HD/FD + pause, 802.3
    status(m, "P1ANLPR", reg::P1ANLPR);
    storage(m, "P1SCLMD", reg::P1SCLMD, 0x0800);
    storage(m, "P1CR", reg::P1CR, 0xFFFF, 0x00FF);
    status(m, "P1SR", reg::P1SR);
}

const char* reg_name(uint32_t off) {
    // One declaration for every core and for the names: the map is built once.
    static const reg_map16& names = []() -> const reg_map16& {
        static reg_map16 m;
        declare_registers(m);
        return m;
    }();
    const reg16* r = names.find(0, off);
    return r ? r->name() : nullptr;
}

} // namespace nicsim::ks
