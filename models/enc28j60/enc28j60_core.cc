// SPDX-License-Identifier: MIT
// Control registers, buffer pointers, interrupts, clock/power and reset of the ENC28J60.
// The MAC (TX/RX) is in enc28j60_mac.cc, the PHY in enc28j60_phy.cc.
#include "models/enc28j60/enc28j60_core.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "bus/common/local_time.h"

namespace nicsim::enc {

using regs::access;
using sc_core::sc_time;

const char* to_string(finding_kind k) {
    switch (k) {
    case finding_kind::unimplemented_register:
        return "unimplemented_register";
    case finding_kind::read_only_write:
        return "read_only_write";
    case finding_kind::bitfield_on_mac_mii:
        return "bitfield_on_mac_mii";
    case finding_kind::missing_dummy_byte:
        return "missing_dummy_byte";
    case finding_kind::mii_busy_access:
        return "mii_busy_access";
    case finding_kind::phy_unimplemented:
        return "phy_unimplemented";
    case finding_kind::pktdec_empty:
        return "pktdec_empty";
    case finding_kind::tx_bad_pointers:
        return "tx_bad_pointers";
    case finding_kind::tx_while_busy:
        return "tx_while_busy";
    case finding_kind::duplex_mismatch:
        return "duplex_mismatch";
    case finding_kind::clock_not_ready:
        return "clock_not_ready";
    case finding_kind::access_after_reset:
        return "access_after_reset";
    case finding_kind::spi_protocol:
        return "spi_protocol";
    case finding_kind::sck_too_fast:
        return "sck_too_fast";
    case finding_kind::spi_mode:
        return "spi_mode";
    case finding_kind::not_modelled:
        return "not_modelled";
    case finding_kind::no_wire:
        return "no_wire";
    case finding_kind::wire_rate:
        return "wire_rate";
    }
    return "?";
}

namespace {
std::string hex(unsigned v) {
    char b[12];
    std::snprintf(b, sizeof b, "0x%02x", v);
    return b;
}
} // namespace

core::core(sc_core::sc_module_name name, const params& p)
    : sc_module(name), m_p(p), m_phy("phy", m_p, m_findings) {
    if (!(p.max_sck_hz > 0.0) || !std::isfinite(p.max_sck_hz))
        throw std::invalid_argument(std::string(this->name()) + ": params.max_sck_hz must be > 0");
    declare_registers();
    for (uint8_t a = 0; a < m_bank0.size(); ++a)
        m_bank0[a] = m_regs.find(0, a);
    m_clk_ready_at = m_p.ost;
    reset_state();
    m_phy.on_read_done = [this](uint16_t v) {
        R(reg::MIRDL).set(uint8_t(v));
        R(reg::MIRDH).set(uint8_t(v >> 8));
    };
    m_phy.on_irq_change = [this] { update_irq(); };

    SC_HAS_PROCESS(core);
    SC_THREAD(tx_engine);
    SC_METHOD(commit_rx);
    sensitive << m_rx_ev;
    dont_initialize();
}

// ------------------------------------------------------------------ register declarations
//
// DS39662 register map. Bits the datasheet lists as unimplemented or reserved are `none`
// (read 0, writes dropped). Reset values: the datasheet's register summary.
void core::declare_registers() {
    auto& m = m_regs;
    // An 8-bit storage register with `mask` implemented bits.
    auto plain = [&m](const char* n, reg_addr a, uint8_t reset, uint8_t mask = 0xFF,
                      uint32_t tag = 0) -> reg8& {
        regs::reg_def<uint8_t> d{n,  a.off, a.bank, reset, mask == 0xFF ? access::rw : access::none,
                                 {}, tag};
        if (mask != 0xFF)
            d.fields.push_back({n, mask, access::rw});
        return m.declare(d);
    };
    auto ro = [&m](const char* n, reg_addr a, uint8_t reset, uint32_t tag = 0) -> reg8& {
        return m.declare({n, a.off, a.bank, reset, access::ro, {}, tag});
    };

    // --- common (all banks) ---
    m_eie = &m.declare({"EIE",
                        reg::EIE.off,
                        regs::all_banks,
                        0x00,
                        access::none,
                        {{"INTIE", EIE_INTIE},
                         {"PKTIE", INT_PKT},
                         {"DMAIE", INT_DMA},
                         {"LINKIE", INT_LINK},
                         {"TXIE", INT_TX},
                         {"TXERIE", INT_TXER},
                         {"RXERIE", INT_RXER}}});
    m_eie->on_write = [this](uint8_t, uint8_t) { update_irq(); };
    // PKTIF follows EPKTCNT and LINKIF the PHY: both read-only, computed on read.
    m_eir = &m.declare({"EIR",
                        reg::EIR.off,
                        regs::all_banks,
                        0x00,
                        access::none,
                        {{"PKTIF", INT_PKT, access::ro},
                         {"DMAIF", INT_DMA, access::clr},
                         {"LINKIF", INT_LINK, access::ro},
                         {"TXIF", INT_TX, access::clr},
                         {"TXERIF", INT_TXER, access::clr},
                         {"RXERIF", INT_RXER, access::clr}}});
    m_eir->on_read = [this](uint8_t) { return eir_value(); };
    m_eir->on_write = [this](uint8_t, uint8_t) { update_irq(); };
    m_estat = &m.declare({"ESTAT",
                          reg::ESTAT.off,
                          regs::all_banks,
                          0x00,
                          access::none,
                          {{"INT", ESTAT_INT, access::ro},
                           {"BUFER", ESTAT_BUFER, access::clr},
                           {"LATECOL", ESTAT_LATECOL, access::clr},
                           {"RXBUSY", ESTAT_RXBUSY, access::ro},
                           {"TXABRT", ESTAT_TXABRT, access::clr},
                           {"CLKRDY", ESTAT_CLKRDY, access::ro}}});
    m_estat->on_read = [this](uint8_t s) {
        // INT: an enabled flag is pending, whatever INTIE says [assumption].
        const bool pending = (eir_value() & m_eie->get() & 0x7F) != 0;
        return uint8_t((s & ~(ESTAT_INT | ESTAT_CLKRDY)) | (pending ? ESTAT_INT : 0) |
                       (clock_ready() ? ESTAT_CLKRDY : 0));
    };
    m_econ2 = &m.declare({"ECON2",
                          reg::ECON2.off,
                          regs::all_banks,
                          ECON2_AUTOINC,
                          access::none,
                          {{"AUTOINC", ECON2_AUTOINC},
                           {"PKTDEC", ECON2_PKTDEC, access::trig},
                           {"PWRSV", ECON2_PWRSV},
                           {"VRPS", ECON2_VRPS}}});
    m_econ2->on_write = [this](uint8_t o, uint8_t v) { write_econ2(o, v); };
    m_econ1 = &m.declare({"ECON1",
                          reg::ECON1.off,
                          regs::all_banks,
                          0x00,
                          access::rw,
                          {{"TXRST", ECON1_TXRST},
                           {"RXRST", ECON1_RXRST},
                           {"DMAST", ECON1_DMAST},
                           {"CSUMEN", ECON1_CSUMEN},
                           {"TXRTS", ECON1_TXRTS},
                           {"RXEN", ECON1_RXEN},
                           {"BSEL", ECON1_BSEL}}});
    m_econ1->on_write = [this](uint8_t o, uint8_t v) { write_econ1(o, v); };

    // --- bank 0: buffer pointers ---
    plain("ERDPTL", reg::ERDPTL, 0xFA);
    plain("ERDPTH", reg::ERDPTH, 0x05, 0x1F);
    plain("EWRPTL", reg::EWRPTL, 0x00);
    plain("EWRPTH", reg::EWRPTH, 0x00, 0x1F);
    plain("ETXSTL", reg::ETXSTL, 0x00);
    plain("ETXSTH", reg::ETXSTH, 0x00, 0x1F);
    plain("ETXNDL", reg::ETXNDL, 0x00);
    plain("ETXNDH", reg::ETXNDH, 0x00, 0x1F);
    // Programming ERXST also moves ERXWRPT there [fact].
    auto rxst = [this](uint8_t, uint8_t) { set_ptr(reg::ERXWRPTL, ptr(reg::ERXSTL)); };
    plain("ERXSTL", reg::ERXSTL, 0xFA).on_write = rxst;
    plain("ERXSTH", reg::ERXSTH, 0x05, 0x1F).on_write = rxst;
    plain("ERXNDL", reg::ERXNDL, 0xFF);
    plain("ERXNDH", reg::ERXNDH, 0x1F, 0x1F);
    // ERXRDPT: the low byte is buffered and the pair takes effect when the high byte is
    // written [fact: write ERXRDPTL first, then ERXRDPTH]. Reads return the effective value.
    plain("ERXRDPTL", reg::ERXRDPTL, 0xFA).on_read = [this](uint8_t) { return uint8_t(m_rxrdpt); };
    auto& rdh = plain("ERXRDPTH", reg::ERXRDPTH, 0x05, 0x1F);
    rdh.on_read = [this](uint8_t) { return uint8_t(m_rxrdpt >> 8); };
    rdh.on_write = [this](uint8_t, uint8_t v) {
        m_rxrdpt = uint16_t(((v & 0x1F) << 8) | R(reg::ERXRDPTL).get());
    };
    ro("ERXWRPTL", reg::ERXWRPTL, 0x00);
    ro("ERXWRPTH", reg::ERXWRPTH, 0x00);
    plain("EDMASTL", reg::EDMASTL, 0x00);
    plain("EDMASTH", reg::EDMASTH, 0x00, 0x1F);
    plain("EDMANDL", reg::EDMANDL, 0x00);
    plain("EDMANDH", reg::EDMANDH, 0x00, 0x1F);
    plain("EDMADSTL", reg::EDMADSTL, 0x00);
    plain("EDMADSTH", reg::EDMADSTH, 0x00, 0x1F);
    plain("EDMACSL", reg::EDMACSL, 0x00);
    plain("EDMACSH", reg::EDMACSH, 0x00);

    // --- bank 1: filters ---
    static const char* const eht[] = {"EHT0", "EHT1", "EHT2", "EHT3",
                                      "EHT4", "EHT5", "EHT6", "EHT7"};
    static const char* const epmm[] = {"EPMM0", "EPMM1", "EPMM2", "EPMM3",
                                       "EPMM4", "EPMM5", "EPMM6", "EPMM7"};
    for (uint8_t i = 0; i < 8; ++i) {
        plain(eht[i], {1, uint8_t(reg::EHT0.off + i)}, 0x00);
        plain(epmm[i], {1, uint8_t(reg::EPMM0.off + i)}, 0x00);
    }
    plain("EPMCSL", reg::EPMCSL, 0x00);
    plain("EPMCSH", reg::EPMCSH, 0x00);
    plain("EPMOL", reg::EPMOL, 0x00);
    plain("EPMOH", reg::EPMOH, 0x00, 0x1F);
    m.declare({"ERXFCON",
               reg::ERXFCON.off,
               1,
               ERXFCON_UCEN | ERXFCON_CRCEN | ERXFCON_BCEN,
               access::rw,
               {{"UCEN", ERXFCON_UCEN},
                {"ANDOR", ERXFCON_ANDOR},
                {"CRCEN", ERXFCON_CRCEN},
                {"PMEN", ERXFCON_PMEN},
                {"MPEN", ERXFCON_MPEN},
                {"HTEN", ERXFCON_HTEN},
                {"MCEN", ERXFCON_MCEN},
                {"BCEN", ERXFCON_BCEN}}})
        .on_write = [this](uint8_t, uint8_t v) {
        if (v & (ERXFCON_PMEN | ERXFCON_MPEN | ERXFCON_HTEN))
            m_findings.add(finding_kind::not_modelled,
                           "ERXFCON pattern/magic/hash filter (never matches)");
    };
    // Read-only: the host decrements it with ECON2.PKTDEC [assumption: writes ignored].
    ro("EPKTCNT", reg::EPKTCNT, 0x00);

    declare_mii_registers();

    // --- bank 3 (ETH part) ---
    plain("EBSTSD", reg::EBSTSD, 0x00);
    plain("EBSTCON", reg::EBSTCON, 0x00).on_write = [this](uint8_t, uint8_t v) {
        if (v & 0x01)
            m_findings.add(finding_kind::not_modelled, "built-in self-test (EBSTCON.BISTST)");
    };
    ro("EBSTCSL", reg::EBSTCSL, 0x00);
    ro("EBSTCSH", reg::EBSTCSH, 0x00);
    ro("EREVID", reg::EREVID, 0x00); // set from params in reset_state()
    plain("ECOCON", reg::ECOCON, 0x04, 0x07);
    m.declare({"EFLOCON",
               reg::EFLOCON.off,
               3,
               0x00,
               access::none,
               {{"FULDPXS", 0x04, access::ro}, {"FCEN", 0x03}}})
        .on_read = [this](uint8_t s) {
        return uint8_t(s | ((R(reg::MACON3).get() & MACON3_FULDPX) ? 0x04 : 0));
    };
    plain("EPAUSL", reg::EPAUSL, 0x00);
    plain("EPAUSH", reg::EPAUSH, 0x10);
}

// Bank 2 and the MAC/MII part of bank 3: MAC configuration, station address, MII management.
void core::declare_mii_registers() {
    auto& m = m_regs;
    auto mac = [&m](const char* n, reg_addr a, uint8_t reset, uint8_t mask = 0xFF) -> reg8& {
        regs::reg_def<uint8_t> d{
            n, a.off, a.bank, reset, mask == 0xFF ? access::rw : access::none, {}, tag_mac_mii};
        if (mask != 0xFF)
            d.fields.push_back({n, mask, access::rw});
        return m.declare(d);
    };
    m.declare({"MACON1",
               reg::MACON1.off,
               2,
               0x00,
               access::none,
               {{"TXPAUS", MACON1_TXPAUS},
                {"RXPAUS", MACON1_RXPAUS},
                {"PASSALL", MACON1_PASSALL},
                {"MARXEN", MACON1_MARXEN}},
               tag_mac_mii});
    m.declare({"MACON3",
               reg::MACON3.off,
               2,
               0x00,
               access::rw,
               {{"PADCFG", MACON3_PADCFG},
                {"TXCRCEN", MACON3_TXCRCEN},
                {"PHDREN", MACON3_PHDREN},
                {"HFRMEN", MACON3_HFRMEN},
                {"FRMLNEN", MACON3_FRMLNEN},
                {"FULDPX", MACON3_FULDPX}},
               tag_mac_mii});
    m.declare({"MACON4",
               reg::MACON4.off,
               2,
               0x00,
               access::none,
               {{"DEFER", 0x40}, {"BPEN", 0x20}, {"NOBKOFF", 0x10}},
               tag_mac_mii});
    mac("MABBIPG", reg::MABBIPG, 0x00, 0x7F);
    mac("MAIPGL", reg::MAIPGL, 0x00, 0x7F);
    mac("MAIPGH", reg::MAIPGH, 0x00, 0x7F);
    mac("MACLCON1", reg::MACLCON1, 0x0F, 0x0F);
    mac("MACLCON2", reg::MACLCON2, 0x37, 0x3F);
    mac("MAMXFLL", reg::MAMXFLL, 0x00);
    mac("MAMXFLH", reg::MAMXFLH, 0x06);
    m.declare({"MICMD",
               reg::MICMD.off,
               2,
               0x00,
               access::none,
               {{"MIISCAN", MICMD_MIISCAN}, {"MIIRD", MICMD_MIIRD}},
               tag_mac_mii})
        .on_write = [this](uint8_t o, uint8_t v) { write_micmd(o, v); };
    mac("MIREGADR", reg::MIREGADR, 0x00, 0x1F);
    mac("MIWRL", reg::MIWRL, 0x00);
    // Writing MIWRH starts the MII write of MIWRH:MIWRL to MIREGADR [fact].
    mac("MIWRH", reg::MIWRH, 0x00).on_write = [this](uint8_t, uint8_t v) {
        m_phy.start_write(R(reg::MIREGADR).get(), uint16_t(v << 8 | R(reg::MIWRL).get()));
    };
    m.declare({"MIRDL", reg::MIRDL.off, 2, 0x00, access::ro, {}, tag_mac_mii});
    m.declare({"MIRDH", reg::MIRDH.off, 2, 0x00, access::ro, {}, tag_mac_mii});

    // Station address: MAADR1 is the first byte on the wire [fact].
    mac("MAADR5", reg::MAADR5, 0x00);
    mac("MAADR6", reg::MAADR6, 0x00);
    mac("MAADR3", reg::MAADR3, 0x00);
    mac("MAADR4", reg::MAADR4, 0x00);
    mac("MAADR1", reg::MAADR1, 0x00);
    mac("MAADR2", reg::MAADR2, 0x00);
    m.declare({"MISTAT",
               reg::MISTAT.off,
               3,
               0x00,
               access::none,
               {{"NVALID", MISTAT_NVALID, access::ro},
                {"SCAN", MISTAT_SCAN, access::ro},
                {"BUSY", MISTAT_BUSY, access::ro}},
               tag_mac_mii})
        .on_read = [this](uint8_t s) {
        return uint8_t((s & ~MISTAT_BUSY) | (m_phy.busy() ? MISTAT_BUSY : 0));
    };
}

// ------------------------------------------------------------------ reset, pointers, IRQ

void core::reset_state() {
    m_regs.reset_all();
    R(reg::EREVID).set(m_p.revid);
    static const reg_addr maadr[6] = {reg::MAADR1, reg::MAADR2, reg::MAADR3,
                                      reg::MAADR4, reg::MAADR5, reg::MAADR6};
    for (unsigned i = 0; i < 6; ++i)
        R(maadr[i]).set(m_p.mac_reset[i]);
    m_rxrdpt = ptr(reg::ERXRDPTL);
    ++m_tx_gen;
    m_tx_pending = false;
    m_duplex_warned = false;
    m_phy.reset();
    update_irq();
}

void core::soft_reset() {
    ++m_stats.soft_resets;
    // Buffer memory keeps its contents [assumption: the datasheet does not clear it].
    reset_state();
    m_src_at = local_time::now();
    m_src_seen = true;
}

// All 13-bit pointer pairs live in bank 0 (cached: RBM/WBM move them once per byte).
uint16_t core::ptr(reg_addr lo) const {
    return uint16_t(((m_bank0[lo.off + 1]->get() << 8) | m_bank0[lo.off]->get()) & ptr_mask);
}

void core::set_ptr(reg_addr lo, uint16_t v) {
    m_bank0[lo.off]->set(uint8_t(v));
    m_bank0[lo.off + 1]->set(uint8_t((v >> 8) & 0x1F));
}

template <class Run> uint16_t core::rx_ring_runs(uint16_t p, size_t n, Run&& run) const {
    // Byte by byte the pointer goes p == ERXND ? ERXST : (p + 1) & 0x1FFF. From at or below
    // ERXND it runs up to ERXND; from above it, up to 0x1FFF and on from 0 (ERXND is never met
    // on the way). Each such stretch is contiguous, so it is visited at once.
    const uint16_t st = ptr(reg::ERXSTL), nd = ptr(reg::ERXNDL);
    while (n > 0) {
        const uint16_t last = p <= nd ? nd : ptr_mask;
        const size_t k = std::min<size_t>(n, size_t(last - p) + 1);
        run(p, k);
        n -= k;
        const uint16_t end = uint16_t(p + k - 1);
        p = end == nd ? st : uint16_t((end + 1) & ptr_mask);
    }
    return p;
}

uint16_t core::rx_ring_write(uint16_t p, const uint8_t* in, size_t n) {
    return rx_ring_runs(p, n, [&](uint16_t a, size_t k) {
        std::memcpy(&m_mem[a], in, k);
        in += k;
    });
}

uint16_t core::rx_advance(uint16_t p, unsigned n) const {
    return rx_ring_runs(p, n, [](uint16_t, size_t) {});
}

unsigned core::rx_free() const {
    const int st = ptr(reg::ERXSTL), nd = ptr(reg::ERXNDL);
    const int wr = ptr(reg::ERXWRPTL), rd = m_rxrdpt;
    int f;
    if (wr > rd)
        f = (nd - st) - (wr - rd);
    else if (wr == rd)
        f = nd - st;
    else
        f = rd - wr - 1;
    return f > 0 ? unsigned(f) : 0u;
}

bool core::clock_ready() const {
    return !(m_econ2->get() & ECON2_PWRSV) && local_time::now() >= m_clk_ready_at;
}

uint8_t core::eir_value() const {
    uint8_t v = uint8_t(m_eir->get() & (INT_DMA | INT_TX | INT_TXER | INT_RXER));
    if (R(reg::EPKTCNT).get())
        v |= INT_PKT;
    if (m_phy.irq())
        v |= INT_LINK;
    return v;
}

// INT is driven low while INTIE is set and an enabled flag is pending [fact].
void core::update_irq() {
    const uint8_t eie = m_eie->get();
    const bool asserted = (eie & EIE_INTIE) && (eir_value() & eie & 0x7F);
    const bool level = !asserted;
    if (level == m_irq_level)
        return;
    m_irq_level = level;
    if (!level)
        ++m_stats.irq_assertions;
    if (on_irq)
        on_irq(level);
}

// ------------------------------------------------------------------ host commands

bool core::is_mac_mii(uint8_t addr) const {
    const reg8* r = m_regs.find(bank(), addr);
    return r && (r->def().tag & tag_mac_mii);
}

void core::begin_command(opcode op, uint8_t addr) {
    if (m_src_seen && local_time::now() < m_src_at + m_p.src_settle)
        m_findings.add(finding_kind::access_after_reset,
                       "SPI command " + std::to_string(unsigned(op)) + " " +
                           (local_time::now() - m_src_at).to_string() + " after SRC");
    if (clock_ready() || op == opcode::src)
        return;
    const bool buffer = op == opcode::rbm || op == opcode::wbm;
    if (buffer ||
        ((op == opcode::rcr || op == opcode::wcr) && addr < first_common && is_mac_mii(addr)))
        m_findings.add(finding_kind::clock_not_ready,
                       std::string(buffer ? "buffer" : "MAC/MII register") +
                           " access while ESTAT.CLKRDY = 0");
}

uint8_t core::peek(reg_addr a) const {
    const reg8* r = m_regs.find(a.bank == common_bank ? 0 : a.bank, a.off);
    return r ? r->read() : 0;
}

uint16_t core::peek16(reg_addr lo) const {
    return uint16_t(peek(lo) | peek({lo.bank, uint8_t(lo.off + 1)}) << 8);
}

uint8_t core::read_control(uint8_t addr) {
    reg8* r = m_regs.find(bank(), addr);
    if (!r) {
        m_findings.add(finding_kind::unimplemented_register,
                       "RCR of " + hex(addr) + " in bank " + std::to_string(bank()));
        return 0;
    }
    if ((r == &R(reg::MIRDL) || r == &R(reg::MIRDH)) && m_phy.busy())
        m_findings.add(finding_kind::mii_busy_access,
                       std::string("read of ") + r->name() + " while MISTAT.BUSY");
    if (r == m_eir)
        ++m_stats.eir_reads;
    return r->read();
}

void core::note_write(const reg8& r, const regs::write_result<uint8_t>& res) {
    if (res.ignored)
        m_findings.add(finding_kind::read_only_write, std::string("write to read-only bits ") +
                                                          hex(res.ignored) + " of " + r.name());
}

void core::write_control(uint8_t addr, uint8_t v) {
    reg8* r = m_regs.find(bank(), addr);
    if (!r) {
        m_findings.add(finding_kind::unimplemented_register, "WCR of " + hex(addr) + " = " +
                                                                 hex(v) + " in bank " +
                                                                 std::to_string(bank()));
        return;
    }
    const bool mii =
        r == &R(reg::MICMD) || r == &R(reg::MIREGADR) || r == &R(reg::MIWRL) || r == &R(reg::MIWRH);
    if (mii && m_phy.busy()) {
        m_findings.add(finding_kind::mii_busy_access,
                       std::string("write of ") + r->name() + " while MISTAT.BUSY");
        if (r == &R(reg::MIWRH))
            return; // a second MII write cannot start [assumption: ignored]
    }
    const bool tx_reg = r == &R(reg::ETXSTL) || r == &R(reg::ETXSTH) || r == &R(reg::ETXNDL) ||
                        r == &R(reg::ETXNDH);
    if (tx_reg && (m_econ1->get() & ECON1_TXRTS))
        m_findings.add(finding_kind::tx_while_busy,
                       std::string("write of ") + r->name() + " while ECON1.TXRTS");
    note_write(*r, r->write(v));
}

void core::bit_field(uint8_t addr, uint8_t mask, bool set) {
    reg8* r = m_regs.find(bank(), addr);
    if (!r) {
        m_findings.add(finding_kind::unimplemented_register, std::string(set ? "BFS" : "BFC") +
                                                                 " of " + hex(addr) + " in bank " +
                                                                 std::to_string(bank()));
        return;
    }
    if (r->def().tag & tag_mac_mii) {
        // BFS/BFC are defined for ETH registers only [fact]; [assumption] no effect.
        m_findings.add(finding_kind::bitfield_on_mac_mii,
                       std::string(set ? "BFS" : "BFC") + " on MAC/MII register " + r->name());
        return;
    }
    note_write(*r, set ? r->host_set_bits(mask) : r->host_clear_bits(mask));
}

void core::read_buffer(uint8_t* out, size_t n) {
    const uint16_t p = ptr(reg::ERDPTL);
    if (!(m_econ2->get() & ECON2_AUTOINC)) {
        std::memset(out, m_mem[p], n); // the pointer stays: every byte is the same one
        return;
    }
    // Reading at ERXND wraps to ERXST, so a packet is read across the ring end [fact].
    set_ptr(reg::ERDPTL, rx_ring_runs(p, n, [&](uint16_t a, size_t k) {
                std::memcpy(out, &m_mem[a], k);
                out += k;
            }));
}

void core::write_buffer(const uint8_t* in, size_t n) {
    uint16_t p = ptr(reg::EWRPTL);
    const bool autoinc = m_econ2->get() & ECON2_AUTOINC;
    if (m_econ1->get() & ECON1_TXRTS) { // the rare case: a finding per byte that hits the packet
        for (size_t i = 0; i < n; ++i) {
            if (p >= ptr(reg::ETXSTL) && p <= ptr(reg::ETXNDL))
                m_findings.add(finding_kind::tx_while_busy,
                               "WBM into the packet being transmitted");
            m_mem[p] = in[i];
            if (autoinc)
                p = uint16_t((p + 1) & ptr_mask);
        }
    } else if (!autoinc) {
        if (n > 0)
            m_mem[p] = in[n - 1]; // each byte overwrites the one before
    } else {
        while (n > 0) { // 0x1FFF wraps to 0 [fact]
            const size_t k = std::min<size_t>(n, size_t(buffer_bytes - p));
            std::memcpy(&m_mem[p], in, k);
            in += k;
            n -= k;
            p = uint16_t((p + k) & ptr_mask);
        }
    }
    if (autoinc)
        set_ptr(reg::EWRPTL, p);
}

// ------------------------------------------------------------------ register handlers

void core::write_econ2(uint8_t old_v, uint8_t v) {
    if (v & ECON2_PKTDEC) {
        ++m_stats.pktdec;
        reg8& cnt = R(reg::EPKTCNT);
        if (cnt.get() == 0)
            m_findings.add(finding_kind::pktdec_empty, "ECON2.PKTDEC with EPKTCNT = 0");
        else
            cnt.set(uint8_t(cnt.get() - 1));
    }
    if ((old_v & ECON2_PWRSV) && !(v & ECON2_PWRSV))
        m_clk_ready_at = local_time::now() + m_p.wake_time; // oscillator restarts
    update_irq();
}

void core::write_econ1(uint8_t old_v, uint8_t v) {
    const uint8_t rise = uint8_t(~old_v & v), fall = uint8_t(old_v & ~v);
    if (rise & ECON1_DMAST) {
        m_findings.add(finding_kind::not_modelled, "DMA (ECON1.DMAST): no copy, no DMAIF");
        m_econ1->set_bits(ECON1_DMAST, false);
    }
    if (rise & ECON1_TXRST) {
        // TX logic in reset: a pending transmission is dropped [assumption].
        ++m_tx_gen;
        m_tx_pending = false;
        m_econ1->set_bits(ECON1_TXRTS, false);
    }
    if ((rise & ECON1_TXRTS) && !(m_econ1->get() & ECON1_TXRST)) {
        m_tx_pending = true;
        m_tx_kick.notify(sc_core::SC_ZERO_TIME);
    } else if ((rise & ECON1_TXRTS)) {
        m_findings.add(finding_kind::tx_bad_pointers, "ECON1.TXRTS while TXRST holds TX");
        m_econ1->set_bits(ECON1_TXRTS, false);
    }
    if ((fall & ECON1_TXRTS) && m_tx_pending) {
        // Host cancelled before the frame reached the wire [assumption: no flags].
        ++m_tx_gen;
        m_tx_pending = false;
    }
}

void core::write_micmd(uint8_t old_v, uint8_t v) {
    if ((v & MICMD_MIISCAN) && !(old_v & MICMD_MIISCAN))
        m_findings.add(finding_kind::not_modelled, "MII scan (MICMD.MIISCAN)");
    if ((v & MICMD_MIIRD) && !(old_v & MICMD_MIIRD) && !m_phy.busy())
        m_phy.start_read(R(reg::MIREGADR).get());
}

} // namespace nicsim::enc
