// SPDX-License-Identifier: MIT
#include "devices/enc28j60/enc28j60_decoder.h"

#include "models/enc28j60/enc28j60_regs.h"

namespace nicsim::trace {

namespace {
constexpr size_t max_decode_bytes = 3; // opcode, dummy (MAC/MII RCR), data

// " EIR{PKTIF|TXIF}": the declared flag fields set in v, for registers made of flags (a pointer
// half with one field says nothing more than its value).
std::string flags_text(const regs::reg<uint8_t>* r, uint8_t v) {
    if (!r || r->def().fields.size() < 2)
        return {};
    for (const auto& f : r->def().fields)
        if (v & f.mask)
            return " " + r->describe(v);
    return {};
}
} // namespace

// "EIR (0x1c)" for the common registers, "ERXRDPTL (b0:0x0c)" for banked ones.
std::string enc28j60_spi_decoder::reg_text(uint8_t addr) const {
    const bool common = addr >= enc::first_common;
    const std::string where =
        common ? hex(addr, 2) : "b" + std::to_string(m_bank) + ":" + hex(addr, 2);
    const auto* r = m_regs.find(m_bank, addr);
    return r ? std::string(r->name()) + " (" + where + ")" : "? (" + where + ")";
}

void enc28j60_spi_decoder::decode(const spi::spi_payload& frame, bus_txn& t, bus_annotations&) {
    frame_bytes(frame, max_decode_bytes, m_mosi, m_miso);
    const size_t len = frame.total_bytes();
    const uint8_t b0 = m_mosi.empty() ? 0 : m_mosi[0];
    const auto op = static_cast<enc::opcode>(b0 >> 5);
    const uint8_t arg = b0 & 0x1f;
    const uint8_t b1 = m_mosi.size() > 1 ? m_mosi[1] : 0;
    const regs::reg<uint8_t>* r = m_regs.find(m_bank, arg);
    const bool is_econ1 = arg == enc::reg::ECON1.off;
    switch (op) {
    case enc::opcode::rcr: {
        const bool mac_mii = r && (r->def().tag & enc::tag_mac_mii);
        const size_t at = mac_mii ? 2 : 1;
        const uint8_t v = m_miso.size() > at ? m_miso[at] : 0;
        t.name = "RCR " + reg_text(arg);
        t.dir = "rd";
        t.detail = "-> " + hex(v, 2) + flags_text(r, v);
        return;
    }
    case enc::opcode::wcr:
        t.name = "WCR " + reg_text(arg);
        t.dir = "wr";
        t.detail = "= " + hex(b1, 2) + flags_text(r, b1);
        if (is_econ1)
            m_bank = b1 & enc::ECON1_BSEL;
        return;
    case enc::opcode::bfs:
    case enc::opcode::bfc: {
        const bool set = op == enc::opcode::bfs;
        t.name = std::string(set ? "BFS " : "BFC ") + reg_text(arg);
        t.dir = "wr";
        t.detail = (set ? "|= " : "&= ~") + hex(b1, 2) + flags_text(r, b1);
        if (is_econ1)
            m_bank = set ? (m_bank | (b1 & enc::ECON1_BSEL)) : (m_bank & ~unsigned(b1));
        return;
    }
    case enc::opcode::rbm:
        t.name = "RBM " + std::to_string(len > 1 ? len - 1 : 0) + " B";
        t.dir = "rd";
        return;
    case enc::opcode::wbm:
        t.name = "WBM " + std::to_string(len > 1 ? len - 1 : 0) + " B";
        t.dir = "wr";
        return;
    case enc::opcode::src:
        t.name = "SRC (soft reset)";
        t.dir = "wr";
        m_bank = 0; // ECON1 resets to 0
        return;
    case enc::opcode::bad:
        break;
    }
    t.name = "? opcode " + hex(b0, 2);
    t.dir = "wr";
}

} // namespace nicsim::trace
