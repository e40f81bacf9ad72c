// SPDX-License-Identifier: MIT
#include "models/ks8851/ks8851_spi.h"

#include <cstring>
#include <string>

#include "bus/common/local_time.h"

namespace nicsim::ks {

namespace {
constexpr uint8_t op_rd = 0x00, op_wr = 0x40, op_rxq = 0x80, op_txq = 0xC0;
}

void spi_frontend::spi_transport(spi::spi_payload& frame, sc_core::sc_time&) {
    const size_t n = frame.total_bytes();
    ++m_stats.frames;
    m_stats.bytes += n;
    if (frame.speed_hz > m_core.prm().max_sck_hz)
        m_core.findings().add(finding_kind::sck_too_fast,
                              "SCK " + std::to_string(frame.speed_hz) + " Hz above " +
                                  std::to_string(m_core.prm().max_sck_hz) + " Hz");
    // Flatten the transfers: the chip sees one byte stream per chip-select assertion.
    m_mosi.assign(n, 0);
    m_miso.assign(n, 0);
    size_t pos = 0;
    for (const auto& x : frame.xfers) {
        if (x.tx)
            std::memcpy(m_mosi.data() + pos, x.tx, x.len);
        pos += x.len;
    }
    if (n > 0) {
        const uint8_t op = m_mosi[0] & 0xC0;
        if (op == op_rd || op == op_wr) {
            reg_access(op == op_wr, m_mosi, m_miso);
        } else if (op == op_rxq) {
            ++m_stats.rxq_reads;
            const unsigned dummy = m_core.prm().spi_rx_dummy_bytes;
            if (n > 1 + dummy) {
                // The first data byte starts shifting (n - 1 - dummy) byte times before the
                // frame ends; the RX DMA must be ready by then.
                const sc_core::sc_time byte_t(8.0 / frame.speed_hz, sc_core::SC_SEC);
                const sc_core::sc_time first = local_time::now() - byte_t * double(n - 1 - dummy);
                if (m_core.sda() && first < m_core.dma_ready_at())
                    m_core.findings().add(finding_kind::dma_not_ready,
                                          "RXQ data clocked before the RX DMA was ready");
            }
            // m_miso is zeroed: the dummy bytes stay 0, the rest is the frame image.
            if (n > 1 + dummy)
                m_core.rxq_read(m_miso.data() + 1 + dummy, n - 1 - dummy);
        } else { // op_txq
            ++m_stats.txq_writes;
            if (n > 1)
                m_core.txq_write(m_mosi.data() + 1, n - 1);
        }
    }
    pos = 0;
    for (auto& x : frame.xfers) {
        if (x.rx)
            std::memcpy(x.rx, m_miso.data() + pos, x.len);
        pos += x.len;
    }
}

void spi_frontend::reg_access(bool write, const std::vector<uint8_t>& mosi,
                              std::vector<uint8_t>& miso) {
    const size_t n = mosi.size();
    if (n < 2) {
        m_core.bus_error("SPI register command shorter than 2 bytes");
        return;
    }
    const unsigned be = (mosi[0] >> 2) & 0xF;
    const uint8_t dword = uint8_t(((mosi[0] & 0x3) << 6) | ((mosi[1] >> 2) & 0x3C));
    if (be == 0) {
        m_core.bus_error("SPI register command with no byte enable");
        return;
    }
    unsigned lanes = 0;
    for (unsigned i = 0; i < 4; ++i)
        lanes += (be >> i) & 1;
    if (n < 2 + lanes)
        m_core.bus_error("SPI register " + std::string(write ? "write" : "read") + " frame of " +
                         std::to_string(n) + " bytes, command needs " + std::to_string(2 + lanes));
    if (write) {
        ++m_stats.reg_writes;
        // Gather the enabled lanes per 16-bit half; write each half once with its byte mask.
        uint16_t val[2] = {0, 0}, mask[2] = {0, 0};
        size_t k = 2;
        for (unsigned i = 0; i < 4 && k < n; ++i) {
            if (!((be >> i) & 1))
                continue;
            const unsigned h = i >> 1, sh = 8 * (i & 1);
            val[h] |= uint16_t(mosi[k++] << sh);
            mask[h] |= uint16_t(0xFF << sh);
        }
        for (unsigned h = 0; h < 2; ++h)
            if (mask[h])
                m_core.reg_write(uint8_t(dword + 2 * h), val[h], mask[h]);
        return;
    }
    ++m_stats.reg_reads;
    uint16_t v[2] = {0, 0};
    for (unsigned h = 0; h < 2; ++h)
        if ((be >> (2 * h)) & 0x3)
            v[h] = m_core.reg_read(uint8_t(dword + 2 * h));
    size_t k = 2;
    for (unsigned i = 0; i < 4 && k < n; ++i) {
        if (!((be >> i) & 1))
            continue;
        miso[k++] = uint8_t(v[i >> 1] >> (8 * (i & 1)));
    }
}

} // namespace nicsim::ks
