// SPDX-License-Identifier: MIT
// WILC1000 SDIO function 1: the data port's TX DMA into the VMM and RX DMA out of the RX
// buffer, and abandoning a DMA the host leaves half done.
#include <cstring>

#include "models/wilc1000/wilc1000_sdio.h"

using namespace sc_core;

namespace nicsim::wilc {

sdio_frontend::result sdio_frontend::f1_data_write(const uint8_t* d, size_t n, sc_time t) {
    if (m_rx_active)
        abandon_streams(t, "F1 write started");
    if (!m_core.clock_ready(t) || !m_core.tx_port_armed()) {
        // Let the core report it (clock off / "VMM TX port not armed").
        m_tx_buf.clear();
        return from_core(m_core.block_write(0, d, n, t), t,
                         "F1 data port write of " + std::to_string(n) + " bytes");
    }
    // The host may split the DMA into a block and a byte-mode CMD53 (wilc_sdio_write): gather
    // until the allocated VMM entries are covered, then hand the whole DMA to the core.
    m_tx_buf.insert(m_tx_buf.end(), d, d + n);
    m_stats.f1_bytes_written += n;
    const uint32_t expected = m_core.tx_port_expected();
    if (expected != 0 && m_tx_buf.size() < expected)
        return {};
    std::vector<uint8_t> dma;
    dma.swap(m_tx_buf);
    return from_core(m_core.block_write(0, dma.data(), dma.size(), t), t,
                     "F1 data port write of " + std::to_string(dma.size()) + " bytes");
}

sdio_frontend::result sdio_frontend::f1_data_read(uint8_t* d, size_t n, sc_time t) {
    if (!m_tx_buf.empty())
        abandon_streams(t, "F1 read started");
    const std::string what = "F1 data port read of " + std::to_string(n) + " bytes";
    if (!m_core.clock_ready(t))
        return from_core(m_core.block_read(0, d, n, t), t, what);
    if (!m_rx_active) {
        if (!m_core.rx_port_armed() || m_core.rx_batch().empty())
            return from_core(m_core.block_read(0, d, n, t), t, what); // the core reports it
        m_rx_active = true;
        m_rx_pos = 0;
    }
    // Serve the announced batch; the core consumes it (INT0 drops, next batch may follow) with
    // the chunk that reaches its end, so the interrupt clears when the whole DMA is done.
    const std::vector<uint8_t>& batch = m_core.rx_batch();
    m_stats.f1_bytes_read += n;
    if (m_rx_pos + n < batch.size()) {
        std::memcpy(d, batch.data() + m_rx_pos, n);
        m_rx_pos += n;
        return {};
    }
    std::vector<uint8_t> all(m_rx_pos + n);
    const access_status s = m_core.block_read(0, all.data(), all.size(), t);
    std::memcpy(d, all.data() + m_rx_pos, n);
    m_rx_active = false;
    m_rx_pos = 0;
    return from_core(s, t, what);
}

void sdio_frontend::abandon_streams(sc_time t, const char* why) {
    if (m_rx_active) {
        m_core.finding(t, finding_kind::unexpected_frame,
                       "F1 RX DMA abandoned after " + std::to_string(m_rx_pos) + " of " +
                           std::to_string(m_core.rx_batch().size()) + " bytes (" + why + ")");
        m_rx_active = false;
        m_rx_pos = 0;
    }
    if (!m_tx_buf.empty()) {
        m_core.finding(t, finding_kind::unexpected_frame,
                       "F1 TX DMA abandoned after " + std::to_string(m_tx_buf.size()) + " of " +
                           std::to_string(m_core.tx_port_expected()) + " bytes (" + why + ")");
        m_tx_buf.clear();
    }
}

} // namespace nicsim::wilc
