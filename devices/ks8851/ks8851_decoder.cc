// SPDX-License-Identifier: MIT
#include "devices/ks8851/ks8851_decoder.h"

#include "models/ks8851/ks8851_regmap.h"
#include "models/ks8851/ks8851_regs.h"

namespace nicsim::trace {

namespace {
namespace r = ks::reg;
constexpr size_t max_decode_bytes = 8; // 2 command bytes + up to 4 data bytes
} // namespace

namespace {
std::string reg_text(uint32_t o) {
    const char* n = ks::reg_name(o); // from the chip's register declarations
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
