// SPDX-License-Identifier: MIT
#include "testbench/bindings/ks8851/ks8851_decoder.h"

#include "models/ks8851/ks8851_regs.h"

namespace nicsim::trace {

namespace {
namespace r = ks::reg;
constexpr size_t max_decode_bytes = 8; // 2 command bytes + up to 4 data bytes
} // namespace

const char* ks8851_reg_name(uint32_t o) {
    switch (o) {
    case r::CCR:
        return "CCR";
    case r::MARL:
        return "MARL";
    case r::MARM:
        return "MARM";
    case r::MARH:
        return "MARH";
    case r::OBCR:
        return "OBCR";
    case r::EEPCR:
        return "EEPCR";
    case r::MBIR:
        return "MBIR";
    case r::GRR:
        return "GRR";
    case r::WFCR:
        return "WFCR";
    case r::TXCR:
        return "TXCR";
    case r::TXSR:
        return "TXSR";
    case r::RXCR1:
        return "RXCR1";
    case r::RXCR2:
        return "RXCR2";
    case r::TXMIR:
        return "TXMIR";
    case r::RXFHSR:
        return "RXFHSR";
    case r::RXFHBCR:
        return "RXFHBCR";
    case r::TXQCR:
        return "TXQCR";
    case r::RXQCR:
        return "RXQCR";
    case r::TXFDPR:
        return "TXFDPR";
    case r::RXFDPR:
        return "RXFDPR";
    case r::RXDTTR:
        return "RXDTTR";
    case r::RXDBCTR:
        return "RXDBCTR";
    case r::IER:
        return "IER";
    case r::ISR:
        return "ISR";
    case r::RXFCTR:
        return "RXFCTR";
    case r::TXNTFSR:
        return "TXNTFSR";
    case r::MAHTR0:
        return "MAHTR0";
    case r::MAHTR1:
        return "MAHTR1";
    case r::MAHTR2:
        return "MAHTR2";
    case r::MAHTR3:
        return "MAHTR3";
    case r::FCLWR:
        return "FCLWR";
    case r::FCHWR:
        return "FCHWR";
    case r::FCOWR:
        return "FCOWR";
    case r::CIDER:
        return "CIDER";
    case r::CGCR:
        return "CGCR";
    case r::IACR:
        return "IACR";
    case r::IADLR:
        return "IADLR";
    case r::IADHR:
        return "IADHR";
    case r::PMECR:
        return "PMECR";
    case r::GSWUTR:
        return "GSWUTR";
    case r::PHYRR:
        return "PHYRR";
    case r::P1MBCR:
        return "P1MBCR";
    case r::P1MBSR:
        return "P1MBSR";
    case r::PHY1ILR:
        return "PHY1ILR";
    case r::PHY1IHR:
        return "PHY1IHR";
    case r::P1ANAR:
        return "P1ANAR";
    case r::P1ANLPR:
        return "P1ANLPR";
    case r::P1SCLMD:
        return "P1SCLMD";
    case r::P1CR:
        return "P1CR";
    case r::P1SR:
        return "P1SR";
    }
    return nullptr;
}

namespace {
std::string reg_text(uint32_t o) {
    const char* n = ks8851_reg_name(o);
    return n ? std::string(n) + " (" + hex(o, 2) + ")" : hex(o, 2);
}
} // namespace

void ks8851_spi_decoder::decode(const spi::spi_payload& frame, bus_txn& t, bus_annotations&) {
    frame_bytes(frame, max_decode_bytes, m_mosi, m_miso);
    const size_t len = frame.total_bytes();
    const uint8_t b0 = m_mosi.empty() ? 0 : m_mosi[0];
    const unsigned op = b0 >> 6;
    if (op == 2) {
        t.name = "RXQ read " + std::to_string(len > 1 ? len - 1 : 0) + " B";
        t.dir = "rd";
        return;
    }
    if (op == 3) {
        t.name = "TXQ write " + std::to_string(len > 1 ? len - 1 : 0) + " B";
        t.dir = "wr";
        return;
    }
    const unsigned be = (b0 >> 2) & 0xf;
    const uint8_t b1 = m_mosi.size() > 1 ? m_mosi[1] : 0;
    const uint32_t reg = ((uint32_t(b0) & 3) << 6) | (b1 >> 2);
    unsigned lane = 0;
    while (lane < 4 && be && !(be & (1u << lane)))
        ++lane;
    const uint32_t offset = (reg & 0xfc) + lane;
    unsigned n = 0;
    for (unsigned i = 0; i < 4; ++i)
        n += (be >> i) & 1u;
    const auto& data = op == 0 ? m_miso : m_mosi;
    uint32_t v = 0;
    for (unsigned i = 0; i < n && 2 + i < data.size(); ++i)
        v |= uint32_t(data[2 + i]) << (8 * i);
    t.name = std::string(op == 0 ? "RD " : "WR ") + reg_text(offset);
    t.dir = op == 0 ? "rd" : "wr";
    t.detail = (op == 0 ? "-> " : "= ") + hex(v, int(2 * (n ? n : 1)));
}

void ks8851_par_decoder::decode(const par::par_payload& p, bus_txn& t, bus_annotations&) {
    const uint64_t off = p.addr - m_base;
    t.dir = p.is_read() ? "rd" : "wr";
    if (off & m_cmd_mask) {
        if (p.is_write()) {
            m_reg = p.data & 0xff;
            m_have_reg = true;
            m_fresh = true;
            t.name = "CMD select " + reg_text(m_reg);
            t.detail = "= " + hex(p.data, 4);
        } else {
            t.name = "CMD read";
            t.detail = "-> " + hex(p.data, 4);
        }
        return;
    }
    // After SDA is set, data-port accesses without a new register selection stream the queue.
    if (m_sda && !m_fresh) {
        t.name = p.is_read() ? "RXQ data" : "TXQ data";
        t.detail = (p.is_read() ? "-> " : "= ") + hex(p.data, 4);
        return;
    }
    m_fresh = false;
    t.name = std::string(p.is_read() ? "RD " : "WR ") + (m_have_reg ? reg_text(m_reg) : "?");
    t.detail = (p.is_read() ? "-> " : "= ") + hex(p.data, 4);
    if (m_have_reg && m_reg == r::RXQCR && p.is_write())
        m_sda = (p.data & ks::RXQCR_SDA) != 0;
}

} // namespace nicsim::trace
