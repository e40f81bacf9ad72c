// SPDX-License-Identifier: MIT
// KSZ8851SNL SPI slave front-end. One chip-select frame (spi_payload) is one command:
//
//   byte 0  [op1 op0][BE3 BE2 BE1 BE0][A7 A6]    op: 00 RD, 01 WR, 10 RXQ read, 11 TXQ write
//   byte 1  [A5 A4 A3 A2][A1 A0][0 0]            (register commands only)
//   RD/WR:  one data byte per set BE bit, ascending byte lanes, little-endian; A7..A2 select the
//           dword, so 8-, 16- and 32-bit accesses are BE patterns 1/2/4/8, 3/C and F.
//   RXQ:    after byte 0, `spi_rx_dummy_bytes` dummy bytes, then the head frame's status word,
//           byte count and data (incl. CRC) from the RX DMA pointer.
//   TXQ:    after byte 0, [control word][byte count][data padded to 4] per frame, any number
//           of frames.
// MOSI during the data phase of a read is ignored (the driver leaves stale bytes there).
#pragma once

#include <cstdint>
#include <vector>

#include "bus/spi/spi_sockets.h"
#include "models/ks8851/ks8851_core.h"

namespace nicsim::ks {

struct spi_frontend_stats {
    uint64_t frames = 0;
    uint64_t reg_reads = 0;
    uint64_t reg_writes = 0;
    uint64_t rxq_reads = 0;
    uint64_t txq_writes = 0;
    uint64_t bytes = 0;
};

class spi_frontend : public spi::spi_slave_if {
  public:
    explicit spi_frontend(core& c) : m_core(c) {}
    void spi_transport(spi::spi_payload& frame, sc_core::sc_time& delay) override;
    // Register reads and FIFO data are answered at the host's local time; the core syncs before
    // a write's side effects (core::reg_write, bus/common/local_time.h).
    bool answers_at_local_time() const override { return true; }
    const spi_frontend_stats& stats() const { return m_stats; }

  private:
    void reg_access(bool write, const std::vector<uint8_t>& mosi, std::vector<uint8_t>& miso);
    core& m_core;
    spi_frontend_stats m_stats;
    std::vector<uint8_t> m_mosi, m_miso; // reused per frame
};

} // namespace nicsim::ks
