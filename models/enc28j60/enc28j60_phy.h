// SPDX-License-Identifier: MIT
// nicsim::enc::phy — the ENC28J60's 10BASE-T PHY as the MAC sees it through the MII management
// interface: 16-bit PHY registers declared once (bus/common/reg.h), one MII operation at a
// time, each taking params.mii_busy (MISTAT.BUSY), link state from the Ethernet wire with the
// latching-low PHSTAT1.LLSTAT and the link-change interrupt (PHIR/PHIE -> EIR.LINKIF).
// The MAC side (enc::core) owns MIREGADR/MICMD/MIWR/MIRD/MISTAT and calls start_read/start_write.
#pragma once

#include <cstdint>
#include <functional>

#include <systemc>

#include "bus/common/reg.h"
#include "models/enc28j60/enc28j60_findings.h"
#include "models/enc28j60/enc28j60_params.h"
#include "models/enc28j60/enc28j60_regs.h"

namespace nicsim::enc {

struct phy_stats {
    uint64_t reads = 0;        // completed MII reads
    uint64_t writes = 0;       // completed MII writes
    uint64_t link_changes = 0; // link transitions seen from the wire
};

class phy : public sc_core::sc_module {
  public:
    phy(sc_core::sc_module_name name, const params& p, finding_log& log);

    // --- MII management (MAC side) ---
    bool busy() const { return m_busy; }
    void start_read(uint8_t addr);
    void start_write(uint8_t addr, uint16_t value);
    std::function<void(uint16_t value)> on_read_done; // MIRD is loaded, BUSY clears after
    std::function<void()> on_done;                    // BUSY cleared (read or write)
    std::function<void()> on_irq_change;              // irq() may have changed

    // --- state for the MAC ---
    bool irq() const; // PHY interrupt request toward EIR.LINKIF
    bool link_up() const { return m_link; }
    bool full_duplex() const { return (m_regs.at(0, phy_reg::PHCON1).get() & PHCON1_PDPXMD) != 0; }
    void set_link(bool up);
    // Link state when the wire is attached (elaboration): no link-change event.
    void init_link(bool up) {
        m_link = up;
        m_llstat = up;
    }
    void set_tx_active(bool on) { m_tx_active = on; }
    void reset(); // power-on / SRC / PHCON1.PRST

    // Value a read would return, without side effects (tests, dumps).
    uint16_t peek(uint8_t addr) const;
    const regs::reg_map<uint16_t>& registers() const { return m_regs; }
    const phy_stats& stats() const { return m_stats; }

  private:
    void declare_registers();
    void complete(); // SC_METHOD: the MII operation ends
    void link_event();

    const params& m_p;
    finding_log& m_findings;
    regs::reg_map<uint16_t> m_regs;
    phy_stats m_stats;
    bool m_link = false;
    bool m_llstat = false; // PHSTAT1.LLSTAT: latches low until read
    bool m_tx_active = false;

    bool m_busy = false;
    bool m_op_read = false;
    uint8_t m_op_addr = 0;
    uint16_t m_op_value = 0;
    sc_core::sc_event m_done_ev;
};

} // namespace nicsim::enc
