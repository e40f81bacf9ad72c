// SPDX-License-Identifier: MIT
#include "models/enc28j60/enc28j60_phy.h"

#include <cstdio>
#include <string>

#include "models/enc28j60/enc28j60_regs.h"

namespace nicsim::enc {

using regs::access;

namespace {
std::string hex(unsigned v) {
    char b[12];
    std::snprintf(b, sizeof b, "0x%02x", v);
    return b;
}
} // namespace

phy::phy(sc_core::sc_module_name name, const params& p, finding_log& log)
    : sc_module(name), m_p(p), m_findings(log) {
    declare_registers();
    reset();
    SC_HAS_PROCESS(phy);
    SC_METHOD(complete);
    sensitive << m_done_ev;
    dont_initialize();
}

// PHY register map: DS39662 PHY register summary. Reset values as listed there; bits the
// datasheet marks reserved are `none` (read 0).
void phy::declare_registers() {
    using namespace phy_reg;
    auto& r = m_regs;
    auto& phcon1 = r.declare({"PHCON1",
                              PHCON1,
                              0,
                              0x0000,
                              access::none,
                              {{"PRST", PHCON1_PRST, access::trig},
                               {"PLOOPBK", PHCON1_PLOOPBK},
                               {"PPWRSV", PHCON1_PPWRSV},
                               {"PDPXMD", PHCON1_PDPXMD}}});
    phcon1.on_write = [this](uint16_t, uint16_t v) {
        if (v & PHCON1_PRST)
            reset(); // self-clearing PHY reset [assumption: instantaneous]
        if (v & (PHCON1_PLOOPBK | PHCON1_PPWRSV))
            m_findings.add(finding_kind::not_modelled, "PHCON1 loopback / PHY power-down");
    };
    auto& phstat1 = r.declare({"PHSTAT1",
                               PHSTAT1,
                               0,
                               PHSTAT1_PFDPX | PHSTAT1_PHDPX,
                               access::none,
                               {{"PFDPX", PHSTAT1_PFDPX, access::ro},
                                {"PHDPX", PHSTAT1_PHDPX, access::ro},
                                {"LLSTAT", PHSTAT1_LLSTAT, access::ro},
                                {"JBSTAT", PHSTAT1_JBSTAT, access::ro}}});
    phstat1.on_read = [this](uint16_t s) {
        return uint16_t((s & ~PHSTAT1_LLSTAT) | (m_llstat ? PHSTAT1_LLSTAT : 0));
    };
    r.declare({"PHID1", PHID1, 0, 0x0083, access::ro}); // [fact] OUI bits 3..18
    r.declare({"PHID2", PHID2, 0, 0x1400, access::ro}); // [fact] OUI 19..24, part 0x05, rev 0
    r.declare({"PHCON2",
               PHCON2,
               0,
               0x0000,
               access::none,
               {{"FRCLNK", PHCON2_FRCLINK},
                {"TXDIS", PHCON2_TXDIS},
                {"JABBER", PHCON2_JABBER},
                {"HDLDIS", PHCON2_HDLDIS}}});
    auto& phstat2 = r.declare({"PHSTAT2",
                               PHSTAT2,
                               0,
                               0x0000,
                               access::none,
                               {{"TXSTAT", PHSTAT2_TXSTAT, access::ro},
                                {"RXSTAT", PHSTAT2_RXSTAT, access::ro},
                                {"COLSTAT", PHSTAT2_COLSTAT, access::ro},
                                {"LSTAT", PHSTAT2_LSTAT, access::ro},
                                {"DPXSTAT", PHSTAT2_DPXSTAT, access::ro},
                                {"PLRITY", PHSTAT2_PLRITY, access::ro}}});
    phstat2.on_read = [this](uint16_t) {
        // RXSTAT/COLSTAT stay 0: the wire delivers frames whole at their end [assumption].
        return uint16_t((m_link ? PHSTAT2_LSTAT : 0) | (full_duplex() ? PHSTAT2_DPXSTAT : 0) |
                        (m_tx_active ? PHSTAT2_TXSTAT : 0));
    };
    r.declare(
         {"PHIE", PHIE, 0, 0x0000, access::none, {{"PLNKIE", PHIE_PLNKIE}, {"PGEIE", PHIE_PGEIE}}})
        .on_write = [this](uint16_t, uint16_t) {
        if (on_irq_change)
            on_irq_change();
    };
    // PHIR: flags, cleared by reading PHIR [fact].
    r.declare({"PHIR",
               PHIR,
               0,
               0x0000,
               access::none,
               {{"PLNKIF", PHIR_PLNKIF, access::ro}, {"PGIF", PHIR_PGIF, access::ro}}});
    r.declare({"PHLCON", PHLCON, 0, 0x3422, access::rw}); // LED configuration: storage
}

void phy::reset() {
    m_regs.reset_all();
    if (m_p.pdpxmd_strap)
        m_regs.at(0, phy_reg::PHCON1).set_bits(PHCON1_PDPXMD, true);
    m_llstat = m_link;
    if (on_irq_change)
        on_irq_change();
}

bool phy::irq() const {
    return (m_regs.at(0, phy_reg::PHIR).get() & PHIR_PGIF) != 0;
}

uint16_t phy::peek(uint8_t addr) const {
    const auto* r = m_regs.find(0, addr);
    return r ? r->read() : 0;
}

void phy::set_link(bool up) {
    if (up == m_link)
        return;
    m_link = up;
    ++m_stats.link_changes;
    if (!up)
        m_llstat = false;
    link_event();
}

// Link change: PLNKIF always; PGIF when the link interrupt and the PHY interrupt are both
// enabled. [assumption] PGIF needs PGEIE (the driver sets PLNKIE and PGEIE together).
void phy::link_event() {
    auto& phir = m_regs.at(0, phy_reg::PHIR);
    const uint16_t phie = m_regs.at(0, phy_reg::PHIE).get();
    phir.set_bits(PHIR_PLNKIF, true);
    if ((phie & PHIE_PLNKIE) && (phie & PHIE_PGEIE))
        phir.set_bits(PHIR_PGIF, true);
    if (on_irq_change)
        on_irq_change();
}

void phy::start_read(uint8_t addr) {
    m_busy = true;
    m_op_read = true;
    m_op_addr = addr;
    m_done_ev.notify(m_p.mii_busy);
}

void phy::start_write(uint8_t addr, uint16_t value) {
    m_busy = true;
    m_op_read = false;
    m_op_addr = addr;
    m_op_value = value;
    m_done_ev.notify(m_p.mii_busy);
}

void phy::complete() {
    m_busy = false;
    auto* r = m_regs.find(0, m_op_addr);
    if (!r)
        m_findings.add(finding_kind::phy_unimplemented,
                       std::string(m_op_read ? "MII read" : "MII write") + " of PHY address " +
                           hex(m_op_addr));
    if (m_op_read) {
        ++m_stats.reads;
        const uint16_t v = r ? r->read() : 0;
        // Read side effects happen when the PHY shifts the register out.
        if (m_op_addr == phy_reg::PHSTAT1)
            m_llstat = m_link;
        if (m_op_addr == phy_reg::PHIR) {
            r->set(0);
            if (on_irq_change)
                on_irq_change();
        }
        if (on_read_done)
            on_read_done(v);
    } else {
        ++m_stats.writes;
        if (r) {
            const auto res = r->write(m_op_value);
            if (res.ignored)
                m_findings.add(finding_kind::read_only_write,
                               std::string("MII write to read-only bits of ") + r->name());
        }
    }
    if (on_done)
        on_done();
}

} // namespace nicsim::enc
