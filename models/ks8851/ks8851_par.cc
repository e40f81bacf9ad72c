// SPDX-License-Identifier: MIT
#include "models/ks8851/ks8851_par.h"

#include <algorithm>

#include "bus/common/local_time.h"

namespace nicsim::ks {

namespace {
uint16_t swap16(uint16_t v) {
    return uint16_t(v << 8 | v >> 8);
}
} // namespace

void par_frontend::par_transport(par::par_payload& p, sc_core::sc_time&) {
    const bool strap_ok = m_core.prm().par_endian_strap_ok;
    const bool is_cmd = (p.addr & m_core.prm().par_cmd_addr_mask) != 0;
    const uint16_t wire_in = strap_ok ? p.data : swap16(p.data);

    if (is_cmd) {
        if (p.is_read()) {
            m_core.findings().add(finding_kind::par_protocol, "read of the command port");
            p.data = 0;
            return;
        }
        ++m_stats.cmd_writes;
        uint16_t cmd = wire_in;
        if (!strap_ok) { // BE[3,2,1,0] is seen as BE[1,0,3,2]
            const uint16_t be = (cmd >> 12) & 0xF;
            cmd = uint16_t((cmd & 0x0FFF) | (((be >> 2) | ((be & 0x3) << 2)) << 12));
        }
        m_cmd = cmd;
        m_reg_cycle = true;
        return;
    }

    // The data cycle right after a command write is a register access even while SDA = 1
    // (that is how the driver writes RXQCR to end a DMA); other data cycles with SDA = 1 stream
    // the FIFO.
    const bool reg_cycle = m_reg_cycle;
    m_reg_cycle = false;
    if (m_core.sda() && !reg_cycle) { // packet-memory FIFO
        if (p.is_read()) {
            ++m_stats.fifo_reads;
            if (m_core.dma_starts() != m_dma_seen) {
                m_dma_seen = m_core.dma_starts();
                m_dummy_left = m_core.prm().par_rx_dummy_words;
                m_check_ready = true;
            }
            uint16_t v = 0;
            if (m_dummy_left) {
                --m_dummy_left; // the dummy word covers the DMA start latency
            } else {
                if (m_check_ready && local_time::now() < m_core.dma_ready_at())
                    m_core.findings().add(finding_kind::dma_not_ready,
                                          "RXQ data read before the RX DMA was ready");
                m_check_ready = false;
                const uint8_t lo = m_core.rxq_read_byte();
                const uint8_t hi = m_core.rxq_read_byte();
                v = uint16_t(lo | hi << 8);
            }
            p.data = strap_ok ? v : swap16(v);
        } else {
            ++m_stats.fifo_writes;
            m_core.txq_write_byte(uint8_t(wire_in));
            m_core.txq_write_byte(uint8_t(wire_in >> 8));
        }
        return;
    }

    // Register data cycle for the last command.
    const uint8_t reg = uint8_t(m_cmd & 0xFE);
    const unsigned be = (m_cmd >> 12) & 0xF;
    const unsigned pair = (reg & 0x2) ? (be >> 2) & 0x3 : be & 0x3;
    const uint16_t mask = uint16_t(((pair & 1) ? 0x00FF : 0) | ((pair & 2) ? 0xFF00 : 0));
    if (p.is_read()) {
        ++m_stats.data_reads;
        const uint16_t v = mask ? uint16_t(m_core.reg_read(reg) & mask) : 0;
        p.data = strap_ok ? v : swap16(v);
    } else {
        ++m_stats.data_writes;
        if (mask)
            m_core.reg_write(reg, wire_in, mask);
    }
}

size_t par_frontend::par_transport_words(const par::par_payload& p, const uint16_t* in,
                                         uint16_t* out, size_t n) {
    // Exactly the words par_transport() would answer the same way with no time and no event:
    // FIFO cycles (SDA = 1, no command cycle before) with the strap matching the host.
    if ((p.addr & m_core.prm().par_cmd_addr_mask) != 0 || !m_core.prm().par_endian_strap_ok ||
        m_reg_cycle || !m_core.sda() || p.lanes != par::lanes_all)
        return 0;
    uint8_t bytes[512];
    if (p.is_read()) {
        // Not the first words of a DMA: the dummy words and the DMA-ready check go word by word.
        if (m_core.dma_starts() != m_dma_seen || m_dummy_left || m_check_ready)
            return 0;
        const size_t w = std::min(n, sizeof(bytes) / 2);
        m_core.rxq_read(bytes, 2 * w); // the bytes of 2w rxq_read_byte() calls
        for (size_t i = 0; i < w; ++i)
            out[i] = uint16_t(bytes[2 * i] | bytes[2 * i + 1] << 8);
        m_stats.fifo_reads += w;
        return w;
    }
    const size_t w = std::min({n, m_core.txq_bytes_before_frame_end() / 2, sizeof(bytes) / 2});
    for (size_t i = 0; i < w; ++i) {
        bytes[2 * i] = uint8_t(in[i]);
        bytes[2 * i + 1] = uint8_t(in[i] >> 8);
    }
    m_core.txq_append(bytes, 2 * w);
    m_stats.fifo_writes += w;
    return w;
}

} // namespace nicsim::ks
